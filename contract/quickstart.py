"""README's quick start ("an integrator's first hour") through a client that openapi-python-client
generated from the running service's own document: the same walk and the same outcomes as the
shell version, with the generated typed functions and models only (no raw HTTP to the service).

Run by contract/clients.contract.ts with PYTHONPATH at the generated package `backoffice_client`
and BASE_URL (…/backoffice/v1), API_KEY (a secret key) and CA_FILE (the service's certificate).
Exits 1, saying which step, when anything differs from what README says happens.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from backoffice_client import AuthenticatedClient
from backoffice_client.api.accounts import list_contact_accounts
from backoffice_client.api.automations import create_automation, set_automation_actions, update_automation
from backoffice_client.api.business_network import create_organisation_unit
from backoffice_client.api.contacts import create_contact
from backoffice_client.api.products import create_product
from backoffice_client.api.purchases import create_purchase
from backoffice_client.api.wallets import create_wallet, get_wallet_balances, list_contact_wallet_transactions, post_journal
from backoffice_client.api.webhooks import create_webhook
from backoffice_client.models import (
    CreateAutomationRequest,
    CreateAutomationRequestEntity,
    CreateAutomationRequestEvent,
    CreateContactRequest,
    CreateContactRequestAccountsItem,
    CreateContactRequestContactType,
    CreateOrganisationUnitRequest,
    CreateOrganisationUnitRequestTapsItem,
    CreateOrganisationUnitRequestType,
    CreateProductRequest,
    CreatePurchaseRequest,
    CreatePurchaseRequestMerchantTap,
    CreatePurchaseRequestProductsItem,
    CreatePurchaseRequestSpendRequest,
    CreateWalletRequest,
    CreateWebhookRequest,
    CreateWebhookRequestMethod,
    Error,
    PostJournalRequest,
    PostJournalRequestType,
    SetAutomationActionsRequest,
    SetAutomationActionsRequestContentItem,
    SetAutomationActionsRequestContentItemAdaptor,
    SetAutomationActionsRequestContentItemAdaptorAction,
    SetAutomationActionsRequestContentItemAdaptorActionParametersItem,
    UpdateAutomationRequest,
    UpdateAutomationRequestState,
)
from backoffice_client.types import Response


def fail(step: str, detail: str) -> None:
    print(f"quickstart.py: {step}: {detail}", file=sys.stderr)
    sys.exit(1)


def answered(step: str, response: Response[Any]) -> Any:
    """The parsed answer of a 2xx, or exit naming the step with the status and body."""
    if response.status_code // 100 != 2 or response.parsed is None or isinstance(response.parsed, Error):
        fail(step, f"answered {int(response.status_code)}: {response.content.decode('utf-8', 'replace')}")
    return response.parsed


def check(step: str, condition: bool, detail: str) -> None:
    if not condition:
        fail(step, detail)


class Receiver(BaseHTTPRequestHandler):
    """README step 5: verifies each delivery's Standard Webhooks signature, keeps what arrived."""

    secret = ""
    received: list[tuple[bool, dict[str, Any]]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        raw = self.rfile.read(int(self.headers.get("content-length", "0")))
        key = base64.b64decode(Receiver.secret.removeprefix("whsec_"))
        signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode() + raw
        expected = hmac.new(key, signed, hashlib.sha256).digest()
        signatures = [s.split(",", 1)[-1] for s in self.headers.get("webhook-signature", "").split(" ")]
        valid = any(hmac.compare_digest(base64.b64decode(s), expected) for s in signatures if s)
        Receiver.received.append((valid, json.loads(raw)))
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
        pass


def main() -> None:
    client = AuthenticatedClient(
        base_url=os.environ["BASE_URL"],
        token=os.environ["API_KEY"],
        prefix="",
        auth_header_name="api_key",
        verify_ssl=os.environ["CA_FILE"],
    )
    run = str(int(time.time() * 1000))

    # 1. A contact with its default account; the account's id from the contact's accounts.
    contact = answered(
        "POST /contacts",
        create_contact.sync_detailed(
            client=client,
            body=CreateContactRequest(
                contact_type=CreateContactRequestContactType.PERSON,
                code=f"QS-PY-{run}",
                first_name="Ada",
                last_name="Lovelace",
                email_address="ada@example.com",
                accounts=[CreateContactRequestAccountsItem(name="Main", is_primary=True, currency_code="EUR")],
            ),
        ),
    )
    accounts = answered(
        "GET /contacts/{id}/accounts",
        list_contact_accounts.sync_detailed(contact.id, client=client, primary_only=True),
    ).accounts
    check("GET /contacts/{id}/accounts", len(accounts) == 1 and accounts[0].is_primary, f"one primary account expected: {accounts}")
    check("GET /contacts/{id}/accounts", accounts[0].currency_code == "EUR", f"EUR expected: {accounts[0].currency_code}")
    account = accounts[0].id

    # 2. A wallet on that account, credited by a journal.
    wallet = answered("POST /accounts/{id}/wallets", create_wallet.sync_detailed(account, client=client, body=CreateWalletRequest())).id
    answered(
        "POST /journals",
        post_journal.sync_detailed(
            client=client,
            body=PostJournalRequest(wallet_id=wallet, amount=50, type_=PostJournalRequestType.CREDIT, description="Welcome credit"),
        ),
    )

    # 3. A product, a merchant with a tap, and a purchase at that tap paying 10.00 from the wallet.
    answered("POST /products", create_product.sync_detailed(client=client, body=CreateProductRequest(sku=f"COFFEE-{run}", name="Coffee")))
    answered(
        "POST /organisations",
        create_organisation_unit.sync_detailed(
            client=client,
            body=CreateOrganisationUnitRequest(
                code=f"CAFE-{run}",
                name="Corner Cafe",
                type_=CreateOrganisationUnitRequestType.MERCHANT,
                taps=[CreateOrganisationUnitRequestTapsItem(name="Till 1", code=f"TILL-{run}")],
            ),
        ),
    )
    answered(
        "POST /purchases",
        create_purchase.sync_detailed(
            client=client,
            body=CreatePurchaseRequest(
                contact_id=contact.id,
                reference_number=f"POS-{run}",
                merchant_tap=CreatePurchaseRequestMerchantTap(code=f"TILL-{run}"),
                products=[CreatePurchaseRequestProductsItem(product_sku=f"COFFEE-{run}", net_amount=10, tax_amount=2, total_amount=12)],
                spend_request=CreatePurchaseRequestSpendRequest(amount=10),
            ),
        ),
    )

    # 4. The wallet's transactions (the credit and the spend) and its balance: 50 - 10.
    transactions = answered(
        "GET /contacts/{id}/wallet_transactions",
        list_contact_wallet_transactions.sync_detailed(contact.id, client=client),
    ).content
    seen = sorted(f"{t.classification} {t.amount:g}" for t in transactions if t.wallet_id == wallet)
    check("GET /contacts/{id}/wallet_transactions", seen == ["CREDIT 50", "SPEND 10"], f"the credit and the spend expected: {seen}")
    balances = answered("GET /wallets/{id}/balances", get_wallet_balances.sync_detailed(wallet, client=client))
    total = sum(b.amount for b in balances)
    check("GET /wallets/{id}/balances", total == 40, f"a balance of 40 expected: {[b.to_dict() for b in balances]}")

    # 5. The receiver, on this machine (the service's operator allows 127.0.0.1).
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        # 6. A webhook to it, and an automation posting to it on every registration.
        webhook = answered(
            "POST /webhooks",
            create_webhook.sync_detailed(
                client=client,
                body=CreateWebhookRequest(
                    name="My CRM",
                    method=CreateWebhookRequestMethod.POST,
                    url_endpoint=f"http://127.0.0.1:{server.server_address[1]}/hooks",
                ),
            ),
        )
        check("POST /webhooks", webhook.secret_key.startswith("whsec_"), "a whsec_ signing secret expected")
        Receiver.secret = webhook.secret_key
        automation = answered(
            "POST /automations",
            create_automation.sync_detailed(
                client=client,
                body=CreateAutomationRequest(
                    name="New contacts to the CRM",
                    entity=CreateAutomationRequestEntity.CONTACTS,
                    event=CreateAutomationRequestEvent.REGISTER_CONTACT,
                ),
            ),
        ).id
        answered(
            "POST /automations/{id}/actions",
            set_automation_actions.sync_detailed(
                automation,
                client=client,
                body=SetAutomationActionsRequest(
                    content=[
                        SetAutomationActionsRequestContentItem(
                            order=1,
                            path="main",
                            adaptor=SetAutomationActionsRequestContentItemAdaptor.WEBHOOKS,
                            adaptor_action=SetAutomationActionsRequestContentItemAdaptorAction.POST_WEBHOOK,
                            adaptor_action_parameters=[
                                SetAutomationActionsRequestContentItemAdaptorActionParametersItem(
                                    parameter_key="webhook_id", parameter_from_value=webhook.id, parameter_type="WEBHOOK"
                                )
                            ],
                        )
                    ]
                ),
            ),
        )
        answered(
            "PUT /automations/{id}",
            update_automation.sync_detailed(automation, client=client, body=UpdateAutomationRequest(state=UpdateAutomationRequestState.ACTIVE)),
        )

        # 7. A registration: the automation runs and the receiver gets the signed event.
        grace = answered(
            "POST /contacts (registration)",
            create_contact.sync_detailed(
                client=client,
                body=CreateContactRequest(
                    contact_type=CreateContactRequestContactType.PERSON, code=f"QS-PY-NEW-{run}", first_name="Grace", last_name="Hopper"
                ),
            ),
        ).id
        deadline = time.monotonic() + 60
        while not Receiver.received and time.monotonic() < deadline:
            time.sleep(0.2)
        check("the webhook", len(Receiver.received) > 0, "no delivery within 60 s of the registration")
        valid, event = Receiver.received[0]
        check("the webhook", valid, f"the signature does not verify: {event}")
        check("the webhook", event.get("type") == "REGISTER_CONTACT", f"a REGISTER_CONTACT event expected: {event}")
        check("the webhook", grace in json.dumps(event.get("data")), f"the event's data does not name the new contact {grace}: {event}")
        print(f"quickstart.py: every step answered as README says; the webhook arrived signed: {json.dumps(event)[:200]}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()

// README's quick start ("an integrator's first hour") through a TypeScript client that
// @hey-api/openapi-ts generated from the running service's own document: the same walk and the
// same outcomes as the shell version, through the generated typed functions only.
//
// contract/clients.contract.ts copies this file beside the generated client (./client), checks
// both with tsc and runs it with tsx, with BASE_URL (…/backoffice/v1), API_KEY (a secret key) and
// NODE_EXTRA_CA_CERTS (the service's certificate). Exits 1, saying which step, when anything differs
// from what README says happens. (The root tsconfig.json skips it: ./client exists only there.)
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createAutomation,
  createContact,
  createOrganisationUnit,
  createProduct,
  createPurchase,
  createWallet,
  createWebhook,
  getWalletBalances,
  listContactAccounts,
  listContactWalletTransactions,
  postJournal,
  setAutomationActions,
  updateAutomation,
} from './client';
import { client } from './client/client.gen';

function fail(step: string, detail: string): never {
  process.stderr.write(`quickstart.ts: ${step}: ${detail}\n`);
  process.exit(1);
}

/** The parsed answer of a 2xx, or exit naming the step with the status and body. */
async function answered<T>(step: string, call: Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response?.ok || data === undefined) fail(step, `answered ${response?.status ?? 'nothing'}: ${JSON.stringify(error)}`);
  return data;
}

function check(step: string, condition: boolean, detail: string): void {
  if (!condition) fail(step, detail);
}

interface Delivery {
  valid: boolean;
  event: { type?: string; data?: unknown };
}

/** README step 5: verifies each delivery's Standard Webhooks signature, keeps what arrived. */
function startReceiver(secret: () => string): Promise<{ server: http.Server; received: Delivery[] }> {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const raw = Buffer.concat(chunks);
      const key = Buffer.from(secret().replace(/^whsec_/, ''), 'base64');
      const expected = createHmac('sha256', key).update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${raw}`).digest();
      const valid = String(req.headers['webhook-signature'] ?? '')
        .split(' ')
        .some((s) => {
          const sig = Buffer.from(s.split(',')[1] ?? '', 'base64');
          return sig.length === expected.length && timingSafeEqual(sig, expected);
        });
      received.push({ valid, event: JSON.parse(raw.toString('utf8')) });
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, received })));
}

async function main(): Promise<void> {
  client.setConfig({
    baseUrl: process.env.BASE_URL,
    // The document's secretKey scheme: the generated client asks for each scheme an operation lists.
    auth: (scheme) => (scheme.type === 'apiKey' ? process.env.API_KEY : undefined),
  });
  const run = String(Date.now());

  // 1. A contact with its default account; the account's id from the contact's accounts.
  const contact = await answered(
    'POST /contacts',
    createContact({
      body: {
        contact_type: 'PERSON',
        code: `QS-TS-${run}`,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email_address: 'ada@example.com',
        accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }],
      },
    }),
  );
  const { accounts } = await answered('GET /contacts/{id}/accounts', listContactAccounts({ path: { id: contact.id }, query: { primary_only: true } }));
  check('GET /contacts/{id}/accounts', accounts.length === 1 && accounts[0].is_primary, `one primary account expected: ${JSON.stringify(accounts)}`);
  check('GET /contacts/{id}/accounts', accounts[0].currency_code === 'EUR', `EUR expected: ${accounts[0].currency_code}`);

  // 2. A wallet on that account, credited by a journal.
  const wallet = (await answered('POST /accounts/{id}/wallets', createWallet({ path: { id: accounts[0].id }, body: {} }))).id;
  await answered('POST /journals', postJournal({ body: { wallet_id: wallet, amount: 50, type: 'CREDIT', description: 'Welcome credit' } }));

  // 3. A product, a merchant with a tap, and a purchase at that tap paying 10.00 from the wallet.
  await answered('POST /products', createProduct({ body: { sku: `COFFEE-${run}`, name: 'Coffee' } }));
  await answered(
    'POST /organisations',
    createOrganisationUnit({ body: { code: `CAFE-${run}`, name: 'Corner Cafe', type: 'MERCHANT', taps: [{ name: 'Till 1', code: `TILL-${run}` }] } }),
  );
  await answered(
    'POST /purchases',
    createPurchase({
      body: {
        contact_id: contact.id,
        reference_number: `POS-${run}`,
        merchant_tap: { code: `TILL-${run}` },
        products: [{ product_sku: `COFFEE-${run}`, net_amount: 10, tax_amount: 2, total_amount: 12 }],
        spend_request: { amount: 10 },
      },
    }),
  );

  // 4. The wallet's transactions (the credit and the spend) and its balance: 50 - 10.
  const { content } = await answered('GET /contacts/{id}/wallet_transactions', listContactWalletTransactions({ path: { id: contact.id } }));
  const seen = content.filter((t) => t.wallet_id === wallet).map((t) => `${t.classification} ${t.amount}`).sort();
  check('GET /contacts/{id}/wallet_transactions', JSON.stringify(seen) === JSON.stringify(['CREDIT 50', 'SPEND 10']), `the credit and the spend expected: ${seen}`);
  const balances = await answered('GET /wallets/{id}/balances', getWalletBalances({ path: { id: wallet } }));
  const total = balances.reduce((sum, b) => sum + b.amount, 0);
  check('GET /wallets/{id}/balances', total === 40, `a balance of 40 expected: ${JSON.stringify(balances)}`);

  // 5. The receiver, on this machine (the service's operator allows 127.0.0.1).
  let secret = '';
  const { server, received } = await startReceiver(() => secret);
  try {
    // 6. A webhook to it, and an automation posting to it on every registration.
    const webhook = await answered(
      'POST /webhooks',
      createWebhook({ body: { name: 'My CRM', method: 'POST', url_endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` } }),
    );
    check('POST /webhooks', webhook.secret_key.startsWith('whsec_'), 'a whsec_ signing secret expected');
    secret = webhook.secret_key;
    const automation = (await answered('POST /automations', createAutomation({ body: { name: 'New contacts to the CRM', entity: 'CONTACTS', event: 'REGISTER_CONTACT' } }))).id;
    await answered(
      'POST /automations/{id}/actions',
      setAutomationActions({
        path: { id: automation },
        body: {
          content: [
            {
              order: 1,
              path: 'main',
              adaptor: 'WEBHOOKS',
              adaptor_action: 'POST_WEBHOOK',
              adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhook.id, parameter_type: 'WEBHOOK' }],
            },
          ],
        },
      }),
    );
    await answered('PUT /automations/{id}', updateAutomation({ path: { id: automation }, body: { state: 'ACTIVE' } }));

    // 7. A registration: the automation runs and the receiver gets the signed event.
    const grace = (await answered('POST /contacts (registration)', createContact({ body: { contact_type: 'PERSON', code: `QS-TS-NEW-${run}`, first_name: 'Grace', last_name: 'Hopper' } }))).id;
    const deadline = Date.now() + 60_000;
    while (!received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    check('the webhook', received.length > 0, 'no delivery within 60 s of the registration');
    const [{ valid, event }] = received;
    check('the webhook', valid, `the signature does not verify: ${JSON.stringify(event)}`);
    check('the webhook', event.type === 'REGISTER_CONTACT', `a REGISTER_CONTACT event expected: ${JSON.stringify(event)}`);
    check('the webhook', JSON.stringify(event.data).includes(grace), `the event's data does not name the new contact ${grace}: ${JSON.stringify(event)}`);
    process.stdout.write(`quickstart.ts: every step answered as README says; the webhook arrived signed: ${JSON.stringify(event).slice(0, 200)}\n`);
  } finally {
    server.close();
  }
}

main().catch((err: unknown) => fail('unexpected', err instanceof Error ? (err.stack ?? err.message) : String(err)));

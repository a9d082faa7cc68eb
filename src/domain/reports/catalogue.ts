// The report catalogue (spec 4.9 `POST /reports/{id}`, `{id}` the report's unique name;
// docs/reports.md "Catalogue"): each report is one table of the organisation with its columns.
// A column's SQL expression is the catalogue's own and never leaves the service; request bodies
// only name columns by key (src/domain/reports/query.ts builds every statement from here).
import { notFound } from '../errors';

export const COLUMN_TYPES = ['TEXT', 'INTEGER', 'NUMBER', 'AMOUNT', 'DATE', 'BOOLEAN'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface ColumnDef {
  /** snake_case, as the API's responses name the field. */
  key: string;
  label: string;
  type: ColumnType;
  filterable: boolean;
  /** DATE columns group by calendar day in the organisation's time zone. */
  groupable: boolean;
  /** Summed when the report is grouped. */
  aggregatable: boolean;
  /** An ISO 3166 alpha-3 column: a filter naming a country (CY or CYP) compares whole codes. */
  country?: boolean;
  /** Over the report's FROM (aliases of `from`); private. */
  sql: string;
}

export interface ReportDef {
  id: string;
  name: string;
  description: string;
  /** FROM clause: the base table aliased `t`, joins scoped to `t.organisation_id`. */
  from: string;
  /** Always-true condition of the report (journals: CREDIT and DEBIT only). */
  where?: string;
  columns: ColumnDef[];
}

interface ColumnOptions {
  filter?: boolean;
  group?: boolean;
  sum?: boolean;
  country?: boolean;
}

/** Defaults: every column filterable; text, boolean and date columns groupable; amounts summed. */
function col(key: string, label: string, type: ColumnType, sql: string, o: ColumnOptions = {}): ColumnDef {
  return {
    key, label, type, sql,
    filterable: o.filter ?? true,
    groupable: o.group ?? (type === 'TEXT' || type === 'BOOLEAN' || type === 'DATE'),
    aggregatable: o.sum ?? type === 'AMOUNT',
    ...(o.country ? { country: true } : {}),
  };
}

const CONTACT_NAME = "COALESCE(c.company_name, NULLIF(concat_ws(' ', c.first_name, c.last_name), ''))";
const contactJoin = (on: string) => `LEFT JOIN contacts c ON c.organisation_id = t.organisation_id AND c.id = ${on}`;
/** The columns naming a record's contact (joined as `c`). */
const contactColumns = () => [
  col('contact_id', 'Contact id', 'TEXT', 't.contact_id::text', { group: true }),
  col('contact_code', 'Contact code', 'TEXT', 'c.code'),
  col('contact_name', 'Contact name', 'TEXT', CONTACT_NAME),
];
const id = () => col('id', 'Id', 'TEXT', 't.id::text', { group: false });

/** A wallet transaction's own columns (wallet_transactions and journals). */
const transactionColumns = (): ColumnDef[] => [
  id(),
  col('number', 'Number', 'INTEGER', 't.number'),
  col('classification', 'Classification', 'TEXT', 't.classification'),
  col('life_cycle_state', 'State', 'TEXT', 't.life_cycle_state'),
  col('amount', 'Amount', 'AMOUNT', 't.amount'),
  col('currency_code', 'Currency', 'TEXT', 'COALESCE(w.currency_code, a.currency_code)'),
  col('description', 'Description', 'TEXT', 't.description', { group: false }),
  ...contactColumns(),
  col('account_id', 'Account id', 'TEXT', 't.account_id::text', { group: true }),
  col('account_number', 'Account number', 'TEXT', 'a.number'),
  col('wallet_id', 'Wallet id', 'TEXT', 't.wallet_id::text', { group: true }),
  col('wallet_number', 'Wallet number', 'TEXT', 'w.code'),
  col('transaction_date', 'Transaction date', 'DATE', 't.transaction_date'),
  col('expiration_date', 'Expiration date', 'DATE', 't.expiration_date'),
  col('created_by', 'Created by', 'TEXT', 't.created_by'),
  col('created_on', 'Created on', 'DATE', 't.created_at'),
];

const TRANSACTION_FROM = `wallet_transactions t
  ${contactJoin('t.contact_id')}
  LEFT JOIN accounts a ON a.organisation_id = t.organisation_id AND a.id = t.account_id
  LEFT JOIN wallets w ON w.organisation_id = t.organisation_id AND w.id = t.wallet_id`;

const REPORTS: ReportDef[] = [
  {
    id: 'contacts',
    name: 'Contacts',
    description: 'Every contact, with its primary e-mail address, phone number and address.',
    from: `contacts t
      LEFT JOIN contact_categories cat ON cat.organisation_id = t.organisation_id AND cat.id = t.category_id
      LEFT JOIN LATERAL (
        SELECT ad.town_city, ad.postal_code, ad.country_code FROM contact_addresses ad
        WHERE ad.organisation_id = t.organisation_id AND ad.contact_id = t.id ORDER BY ad.is_primary DESC, ad.created_at LIMIT 1
      ) ad ON true`,
    columns: [
      id(),
      col('code', 'Code', 'TEXT', 't.code', { group: false }),
      col('contact_type', 'Type', 'TEXT', 't.contact_type'),
      col('name', 'Name', 'TEXT', "COALESCE(t.company_name, NULLIF(concat_ws(' ', t.first_name, t.last_name), ''))"),
      col('first_name', 'First name', 'TEXT', 't.first_name'),
      col('last_name', 'Last name', 'TEXT', 't.last_name'),
      col('company_name', 'Company name', 'TEXT', 't.company_name'),
      col('email_address', 'E-mail address', 'TEXT',
        '(SELECT e.email_address FROM contact_emails e WHERE e.organisation_id = t.organisation_id AND e.contact_id = t.id ORDER BY e.is_primary DESC, e.created_at LIMIT 1)', { group: false }),
      col('phone_number', 'Phone number', 'TEXT',
        '(SELECT p.number FROM contact_phones p WHERE p.organisation_id = t.organisation_id AND p.contact_id = t.id ORDER BY p.is_primary DESC, p.created_at LIMIT 1)', { group: false }),
      col('category_name', 'Category', 'TEXT', 'cat.name'),
      col('preferred_language_code', 'Language', 'TEXT', 't.preferred_language_code'),
      col('town_city', 'Town or city', 'TEXT', 'ad.town_city'),
      col('postal_code', 'Postal code', 'TEXT', 'ad.postal_code'),
      col('country_code', 'Country', 'TEXT', 'ad.country_code', { country: true }),
      col('statutory_number', 'Statutory number', 'TEXT', 't.statutory_number', { group: false }),
      col('loyalty_identifier', 'Loyalty identifier', 'TEXT', 't.loyalty_identifier', { group: false }),
      col('consent_state', 'Consent', 'TEXT', 't.consent_state'),
      col('kyc_status', 'KYC status', 'TEXT', 't.kyc_status'),
      col('email_opt_out', 'E-mail opt-out', 'BOOLEAN', 't.email_opt_out'),
      col('sms_opt_out', 'SMS opt-out', 'BOOLEAN', 't.sms_opt_out'),
      col('is_anonymized', 'Anonymized', 'BOOLEAN', 't.is_anonymized'),
      col('created_on', 'Registered on', 'DATE', 't.created_at'),
      col('last_activity_on', 'Last activity', 'DATE', 't.last_activity_at'),
    ],
  },
  {
    id: 'purchases',
    name: 'Purchases',
    description: 'Purchase customer events (spec 2.12) with their amounts, contact, merchant and outlet.',
    from: `purchases t
      ${contactJoin('t.contact_id')}
      LEFT JOIN network_units m ON m.organisation_id = t.organisation_id AND m.id = t.merchant_unit_id
      LEFT JOIN network_units o ON o.organisation_id = t.organisation_id AND o.id = t.outlet_unit_id
      LEFT JOIN purchase_classifications pc ON pc.organisation_id = t.organisation_id AND pc.id = t.classification_id`,
    columns: [
      id(),
      col('number', 'Number', 'INTEGER', 't.number'),
      col('reference_number', 'Reference number', 'TEXT', 't.reference_number', { group: false }),
      col('performed_on', 'Performed on', 'DATE', 't.performed_on'),
      ...contactColumns(),
      col('total_amount', 'Total amount', 'AMOUNT', 't.total_amount'),
      col('net_amount', 'Net amount', 'AMOUNT', 't.net_amount'),
      col('tax_amount', 'Tax amount', 'AMOUNT', 't.tax_amount'),
      col('returned_amount', 'Returned amount', 'AMOUNT', 't.returned_amount'),
      col('currency_code', 'Currency', 'TEXT', 't.currency_code'),
      col('life_cycle_state', 'State', 'TEXT', 't.life_cycle_state'),
      col('merchant_name', 'Merchant', 'TEXT', 'm.name'),
      col('outlet_name', 'Outlet', 'TEXT', 'o.name'),
      col('classification_name', 'Classification', 'TEXT', 'pc.name'),
      col('payment_medium_identifier', 'Payment medium', 'TEXT', 't.payment_medium_identifier', { group: false }),
      col('account_id', 'Account id', 'TEXT', 't.account_id::text', { group: true }),
      col('created_on', 'Created on', 'DATE', 't.created_at'),
    ],
  },
  {
    id: 'wallet_transactions',
    name: 'Wallet transactions',
    description: 'Every wallet transaction (spec 2.11): journals, transfers, voids, expiry, top-ups, awards, spends and refunds.',
    from: TRANSACTION_FROM,
    columns: transactionColumns(),
  },
  {
    id: 'journals',
    name: 'Journals',
    description: 'The wallet transactions of journals (POST /journals): CREDIT and DEBIT; signed_amount is negative for debits, so its sum is the net movement.',
    from: TRANSACTION_FROM,
    where: "t.classification IN ('CREDIT', 'DEBIT')",
    columns: [
      ...transactionColumns().map((c) => (c.key === 'classification' ? { ...c, label: 'Type' } : c)),
      col('signed_amount', 'Signed amount', 'AMOUNT', "CASE WHEN t.classification = 'DEBIT' THEN -t.amount ELSE t.amount END"),
    ],
  },
  {
    id: 'communications',
    name: 'Communications',
    description: 'Communications (spec 2.10) sent by API calls and plans, with their delivery and tracking.',
    from: `communications t ${contactJoin('t.contact_id')}`,
    columns: [
      id(),
      col('name', 'Name', 'TEXT', 't.name'),
      col('channel', 'Channel', 'TEXT', 't.channel'),
      col('life_cycle_state', 'State', 'TEXT', 't.life_cycle_state'),
      ...contactColumns(),
      col('recipient', 'Recipient', 'TEXT', 't.recipient', { group: false }),
      col('sender', 'Sender', 'TEXT', 't.sender'),
      col('subject', 'Subject', 'TEXT', 't.subject'),
      col('language', 'Language', 'TEXT', 't.language'),
      col('is_viewed', 'Viewed', 'BOOLEAN', 't.is_viewed'),
      col('viewed_on', 'Viewed on', 'DATE', 't.viewed_on'),
      col('clicked_on', 'Clicked on', 'DATE', 't.clicked_on'),
      col('is_archived', 'Archived', 'BOOLEAN', 't.is_archived'),
      col('failure_reason', 'Failure reason', 'TEXT', 't.failure_reason'),
      col('sent_on', 'Sent on', 'DATE', 't.sent_at'),
      col('created_on', 'Created on', 'DATE', 't.created_at'),
    ],
  },
  {
    id: 'webhook_requests',
    name: 'Webhook requests',
    description: 'Outbound webhook requests (spec 2.9) with their state, retries and response status.',
    from: 'webhook_requests t',
    columns: [
      id(),
      col('webhook_id', 'Webhook id', 'TEXT', 't.webhook_id::text'),
      col('webhook_name', 'Webhook', 'TEXT', 't.webhook_name'),
      col('method', 'Method', 'TEXT', 't.method'),
      col('url_endpoint', 'URL', 'TEXT', 't.url_endpoint'),
      col('url_auth', 'Authentication', 'TEXT', 't.url_auth'),
      col('type', 'Type', 'TEXT', 't.type'),
      col('state', 'State', 'TEXT', 't.state'),
      col('retries', 'Retries', 'INTEGER', 't.retries', { sum: true }),
      col('response_status', 'Response status', 'INTEGER', 't.response_status', { group: true }),
      col('automation_id', 'Automation id', 'TEXT', 't.automation_id::text'),
      col('automation_name', 'Automation', 'TEXT', 't.automation_name'),
      col('entity_type', 'Entity type', 'TEXT', 't.entity_type'),
      col('entity_reference', 'Entity reference', 'TEXT', 't.entity_reference', { group: false }),
      col('call_id', 'Call id', 'TEXT', 't.call_id::text', { group: false }),
      col('created_on', 'Requested on', 'DATE', 't.created_at'),
      col('completed_on', 'Completed on', 'DATE', 't.completed_at'),
    ],
  },
];

const BY_ID = new Map(REPORTS.map((r) => [r.id, r]));

export function reportDefs(): readonly ReportDef[] {
  return REPORTS;
}

/** The report of a path's `{id}`: 404 for a name the catalogue does not have. */
export function reportDef(id: string): ReportDef {
  const found = BY_ID.get(id);
  if (!found) throw notFound(`Report ${id}`);
  return found;
}

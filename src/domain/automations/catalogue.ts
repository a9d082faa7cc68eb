// The automation catalogue (spec 2.8, 6; docs/automations.md "Catalogue"): the entities an
// automation binds to with their trigger events and filterable attributes, and the adaptors with
// their actions and each action's parameters. Pure data and lookups: published by
// GET /automation_events and GET /adaptors, read by the definitions' validation and by the runs.
import { createHash } from 'node:crypto';
import { CHANNELS } from '../communications/integration-settings';
import { isId, normaliseId } from '../ids';
import type { Classification } from '../money/ledger/entries';

// ---------------------------------------------------------------- attributes and entities

export const ATTRIBUTE_TYPES = ['STRING', 'NUMBER', 'DATE', 'BOOLEAN', 'LIST'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export const FILTER_OPERATORS = ['EQUAL', 'NOT_EQUAL', 'LESS', 'EQUAL_LESS', 'GREATER', 'EQUAL_GREATER', 'IN', 'CONTAINS', 'STARTS_WITH'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const ORDERED: FilterOperator[] = ['EQUAL', 'NOT_EQUAL', 'LESS', 'EQUAL_LESS', 'GREATER', 'EQUAL_GREATER', 'IN'];

/** The operators a filter may use on an attribute of each type. */
export const OPERATORS_BY_TYPE: Record<AttributeType, readonly FilterOperator[]> = {
  NUMBER: ORDERED,
  DATE: ORDERED,
  STRING: [...ORDERED, 'CONTAINS', 'STARTS_WITH'],
  LIST: ['IN', 'CONTAINS'],
  BOOLEAN: ['EQUAL', 'NOT_EQUAL'],
};

/**
 * A STRING that holds a standard code: a filter value must be such a code, in the form records
 * store (a country as alpha-3), or it could never match.
 */
export type CodeFormat = 'COUNTRY' | 'LANGUAGE' | 'CURRENCY';

/**
 * Where a client finds the values of an attribute that names records or codes: a GET list of the
 * API (`{content[]}`), the item field that is the value and the one to show.
 */
export interface ValuesFrom {
  path: string;
  value: string;
  label: string;
}

export interface AttributeDef {
  code: string;
  label: string;
  type: AttributeType;
  /** Dotted path into the event data (the outbox payload, with `contact` the contact's snapshot). */
  path: string;
  format?: CodeFormat;
  /** A closed list: the values the events carry (compared case-insensitively, like every STRING). */
  values?: readonly string[];
  /** The value (or a LIST's elements) is a record's id. */
  id?: boolean;
  valuesFrom?: ValuesFrom;
}

type AttrExtra = Pick<AttributeDef, 'format' | 'values' | 'id' | 'valuesFrom'>;

const attr = (code: string, label: string, type: AttributeType, path: string, extra: AttrExtra = {}): AttributeDef =>
  ({ code, label, type, path, ...extra });

const list = (path: string, value = 'id', label = 'name'): ValuesFrom => ({ path, value, label });
const code = (format: CodeFormat, valuesFrom?: ValuesFrom): AttrExtra => ({ format, ...(valuesFrom ? { valuesFrom } : {}) });
const ids = (valuesFrom?: ValuesFrom): AttrExtra => ({ id: true, ...(valuesFrom ? { valuesFrom } : {}) });

const CONTACT_TYPES = ['PERSON', 'COMPANY'] as const;
/** Every classification a wallet transaction event carries: a key per ledger `Classification`, so one added there fails tsc here. */
const CLASSIFICATIONS = Object.keys({
  CREDIT: 1, DEBIT: 1, TRANSFER: 1, VOID: 1, EXPIRY: 1, TOPUP: 1, AWARD: 1, SPEND: 1, RETURN: 1,
} satisfies Record<Classification, 1>);

/**
 * Every attribute, once: a code means the same path and type on every entity that lists it, so
 * a stored filter can be evaluated by its code alone.
 */
const ATTRIBUTES: Record<string, AttributeDef> = Object.fromEntries(
  [
    // The contact's snapshot (src/domain/events/contact-snapshot.ts), on every event about a contact.
    attr('NAME', 'Name', 'STRING', 'contact.name'),
    attr('FIRST_NAME', 'First name', 'STRING', 'contact.first_name'),
    attr('LAST_NAME', 'Last name', 'STRING', 'contact.last_name'),
    attr('COMPANY_NAME', 'Company name', 'STRING', 'contact.company_name'),
    attr('CONTACT_TYPE', 'Contact type', 'STRING', 'contact.contact_type', { values: CONTACT_TYPES }),
    attr('CODE', 'Contact code', 'STRING', 'contact.code'),
    attr('EMAIL_ADDRESS', 'E-mail address', 'STRING', 'contact.email_address'),
    attr('PHONE_NUMBER', 'Phone number', 'STRING', 'contact.phone_number'),
    attr('LANGUAGE_CODE', 'Language', 'STRING', 'contact.language_code', code('LANGUAGE')),
    attr('CATEGORY_ID', 'Contact category', 'STRING', 'contact.category_id', ids(list('/contact_categories'))),
    attr('POSTAL_CODE', 'Postal code', 'STRING', 'contact.postal_code'),
    attr('COUNTRY_CODE', 'Country', 'STRING', 'contact.country_code', code('COUNTRY', list('/countries', 'code'))),
    attr('CREATED_ON', 'Contact registered on', 'DATE', 'contact.created_on'),
    attr('IS_ANONYMIZED', 'Contact is anonymized', 'BOOLEAN', 'contact.is_anonymized', { values: ['true', 'false'] }),
    // Facts of the events themselves.
    attr('ACCOUNT_IDS', 'Accounts created', 'LIST', 'account_ids', ids()),
    attr('ACCOUNT_ID', 'Account', 'STRING', 'account_id', ids()),
    attr('AMOUNT', 'Amount', 'NUMBER', 'amount'),
    attr('CURRENCY_CODE', 'Currency', 'STRING', 'currency_code', code('CURRENCY')),
    attr('REWARD_OFFER_ID', 'Reward offer', 'STRING', 'reward_offer_id', ids(list('/reward_offers'))),
    attr('REFERENCE_NUMBER', 'Reference number', 'STRING', 'reference_number'),
    attr('TOTAL_AMOUNT', 'Total amount', 'NUMBER', 'total_amount'),
    attr('SPEND_AMOUNT', 'Amount spent from the wallet', 'NUMBER', 'spend_amount'),
    attr('AWARD_AMOUNT', 'Amount awarded', 'NUMBER', 'award_amount'),
    attr('CLASSIFICATION', 'Transaction classification', 'STRING', 'classification', { values: CLASSIFICATIONS }),
    attr('WALLET_ID', 'Wallet', 'STRING', 'wallet_id', ids()),
    attr('VOUCHER_NUMBER', 'Voucher number', 'STRING', 'number'),
    attr('VOUCHER_TYPE_ID', 'Voucher type', 'STRING', 'voucher_type_id', ids(list('/voucher_types'))),
    attr('VALUE', 'Voucher value', 'NUMBER', 'value'),
    attr('USED_VALUE', 'Value used', 'NUMBER', 'used_value'),
    attr('EXPIRATION_DATE', 'Expiration date', 'DATE', 'expiration_date'),
    attr('USED_ON', 'Used on', 'DATE', 'used_on'),
    attr('CHANNEL', 'Channel', 'STRING', 'channel', { values: CHANNELS }),
    attr('TEMPLATE_ID', 'Communication template', 'STRING', 'template_id', ids(list('/communication_templates'))),
    attr('PLAN_ID', 'Communication plan', 'STRING', 'plan_id', ids(list('/communication_plans'))),
  ].map((a) => [a.code, a]),
);

const CONTACT_ATTRIBUTES = [
  'NAME', 'FIRST_NAME', 'LAST_NAME', 'COMPANY_NAME', 'CONTACT_TYPE', 'CODE', 'EMAIL_ADDRESS', 'PHONE_NUMBER',
  'LANGUAGE_CODE', 'CATEGORY_ID', 'POSTAL_CODE', 'COUNTRY_CODE', 'CREATED_ON', 'IS_ANONYMIZED',
];

export const ENTITY_CODES = ['CONTACTS', 'PURCHASES', 'WALLETS', 'VOUCHERS', 'COMMUNICATIONS'] as const;
export type EntityCode = (typeof ENTITY_CODES)[number];

export interface EntityDef {
  code: EntityCode;
  name: string;
  /** The payload field holding the id of the record an event is about. */
  idField: string;
  events: Array<{ code: string; name: string }>;
  attributes: AttributeDef[];
}

const entity = (code: EntityCode, name: string, idField: string, events: Array<[string, string]>, attributes: string[]): EntityDef => ({
  code, name, idField,
  events: events.map(([c, n]) => ({ code: c, name: n })),
  attributes: [...CONTACT_ATTRIBUTES, ...attributes].map((a) => ATTRIBUTES[a]),
});

export const ENTITIES: readonly EntityDef[] = [
  entity('CONTACTS', 'Contacts', 'contact_id', [
    ['REGISTER_CONTACT', 'Contact registered'], ['UPDATE_CONTACT', 'Contact updated'],
    ['ANONYMIZE_CONTACT', 'Contact anonymized'], ['AWARD_CUSTOMER', 'Customer awarded'],
  ], ['ACCOUNT_IDS', 'AMOUNT', 'CURRENCY_CODE', 'REWARD_OFFER_ID']),
  entity('PURCHASES', 'Purchases', 'purchase_id', [
    ['PURCHASE_POSTED', 'Purchase posted'], ['PURCHASE_CANCELLED', 'Purchase cancelled'], ['PURCHASE_RETURNED', 'Purchase returned'],
  ], ['REFERENCE_NUMBER', 'TOTAL_AMOUNT', 'SPEND_AMOUNT', 'AWARD_AMOUNT', 'AMOUNT', 'CURRENCY_CODE', 'ACCOUNT_ID']),
  entity('WALLETS', 'Wallets', 'wallet_id', [
    ['WALLET_TRANSACTION_POSTED', 'Wallet transaction posted'], ['WALLET_TRANSACTION_VOIDED', 'Wallet transaction voided'],
  ], ['AMOUNT', 'CURRENCY_CODE', 'CLASSIFICATION', 'WALLET_ID']),
  entity('VOUCHERS', 'Vouchers', 'voucher_id', [
    ['VOUCHER_ISSUED', 'Voucher issued'], ['VOUCHER_USED', 'Voucher used'], ['VOUCHER_CANCELLED', 'Voucher cancelled'],
  ], ['VOUCHER_NUMBER', 'VOUCHER_TYPE_ID', 'VALUE', 'USED_VALUE', 'CURRENCY_CODE', 'EXPIRATION_DATE', 'USED_ON']),
  entity('COMMUNICATIONS', 'Communications', 'communication_id', [
    ['COMMUNICATION_SENT', 'Communication sent'], ['COMMUNICATION_FAILED', 'Communication failed'],
  ], ['CHANNEL', 'TEMPLATE_ID', 'PLAN_ID']),
];

export const EVENT_CODES = ENTITIES.flatMap((e) => e.events.map((v) => v.code)) as [string, ...string[]];

export function entityDef(code: string): EntityDef | undefined {
  return ENTITIES.find((e) => e.code === code);
}

/** The entity whose automations an outbox event of this type triggers. */
export function entityOfEvent(eventType: string): EntityCode | undefined {
  return ENTITIES.find((e) => e.events.some((v) => v.code === eventType))?.code;
}

/** The id of the record an event is about (the record's `entity_id`), from the event's payload. */
export function entityIdOf(entity: string, payload: Record<string, unknown>): string | undefined {
  const field = entityDef(entity)?.idField;
  const value = field ? payload[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A code is equal or not, or one of a list: its substrings and order mean nothing. */
const CODE_OPERATORS: readonly FilterOperator[] = ['EQUAL', 'NOT_EQUAL', 'IN'];

/** The operators a filter may use on this attribute. */
export function operatorsOf(def: AttributeDef): readonly FilterOperator[] {
  return def.format ? CODE_OPERATORS : OPERATORS_BY_TYPE[def.type];
}

/**
 * What one value of an attribute is (a LIST's elements): the `type` says how filters compare,
 * this says what to offer for it. UUID: a record's id; ENUM: one of `values`; the codes: ISO
 * 3166 (alpha-2 or alpha-3, stored alpha-3), ISO 639 (3 letters), ISO 4217.
 */
export const ATTRIBUTE_VALUE_TYPES = ['STRING', 'NUMBER', 'DATE', 'BOOLEAN', 'UUID', 'ENUM', 'COUNTRY_CODE', 'LANGUAGE_CODE', 'CURRENCY_CODE'] as const;
export type AttributeValueType = (typeof ATTRIBUTE_VALUE_TYPES)[number];

export function valueTypeOf(def: AttributeDef): AttributeValueType {
  if (def.format) return `${def.format}_CODE`;
  if (def.id) return 'UUID';
  if (def.type === 'BOOLEAN') return 'BOOLEAN';
  if (def.values) return 'ENUM';
  return def.type === 'LIST' ? 'STRING' : def.type;
}

/** The attribute a stored filter names (codes mean the same on every entity). */
export function attributeDef(code: string): AttributeDef | undefined {
  return ATTRIBUTES[code];
}

/** The attribute, when the entity's events carry it. */
export function entityAttribute(entity: string, code: string): AttributeDef | undefined {
  return entityDef(entity)?.attributes.find((a) => a.code === code);
}

// ---------------------------------------------------------------- adaptors, actions, parameters

/**
 * INTEGER (min..max), UUID (naming a record of `ref` in the organisation: 404 otherwise), ENUM
 * (one of `values`), STRING (up to `max` characters).
 */
export type ParameterValueType = 'STRING' | 'INTEGER' | 'UUID' | 'ENUM';
export type ParameterRef = 'webhook' | 'template' | 'integration' | 'user' | 'department' | 'user_role' | 'organisation';

export interface ParameterDef {
  key: string;
  /** The spec's parameter_type: what the value means (APPROVAL_ENTITY_TYPE, SUPPLY_METHOD, ...). */
  parameterType: string;
  valueType: ParameterValueType;
  required: boolean;
  description: string;
  defaultValue?: string;
  min?: number;
  max?: number;
  values?: readonly string[];
  ref?: ParameterRef;
  /** A STRING rendered with `{{contact.<field>}}` placeholders: an unknown one is refused when stored. */
  placeholders?: boolean;
}

/** At least one of the groups must be complete: template_id, or subject with content. */
export interface ParameterRule {
  oneOf: string[][];
  message: string;
}

export interface ActionDef {
  id: string;
  code: string;
  name: string;
  /** What it does, in a business user's words (GET /adaptors; the console's action picker). */
  description: string;
  parameters: ParameterDef[];
  rules: ParameterRule[];
}

export interface AdaptorDef {
  id: string;
  code: string;
  name: string;
  actions: ActionDef[];
}

/** A stable UUID from a name (RFC 9562 version-5 layout over the first 16 bytes of its SHA-1). */
export function stableId(name: string): string {
  const b = createHash('sha1').update(name).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const p = (key: string, parameterType: string, valueType: ParameterValueType, required: boolean, description: string, extra: Partial<ParameterDef> = {}): ParameterDef => ({
  key, parameterType, valueType, required, description, ...extra,
});

const uuid = (key: string, parameterType: string, ref: ParameterRef, required: boolean, description: string) => p(key, parameterType, 'UUID', required, description, { ref });

const MESSAGE = [
  uuid('template_id', 'TEMPLATE', 'template', false, "The template to send, in the contact's language; or write a subject and content instead."),
  p('subject', 'SUBJECT', 'STRING', false, "The subject when no template is chosen; placeholders such as {{contact.first_name}} are filled in for the event's contact.", { max: 500, placeholders: true }),
  p('content', 'CONTENT', 'STRING', false, "The plain-text message when no template is chosen; placeholders as in the subject.", { max: 20000, placeholders: true }),
  uuid('integration_id', 'INTEGRATION', 'integration', false, "What sends it; empty: the organisation's integration of the channel, else for e-mail the service's own mailer."),
];
const MESSAGE_RULE: ParameterRule = { oneOf: [['template_id'], ['subject', 'content']], message: 'Choose a template, or write both a subject and content (template_id, or subject and content)' };

const userId = (required = true) => uuid('user_id', 'USER', 'user', required, 'A user of the organisation.');
const departmentId = () => uuid('department_id', 'DEPARTMENT', 'department', true, 'A department of the organisation.');
const userRoleId = () => uuid('user_role_id', 'USER_ROLE', 'user_role', true, 'A user role of the organisation.');
const organisationId = (required = true) =>
  uuid('organisation_id', 'ORGANISATION', 'organisation', required, 'The tenant or a unit of its business network (GET /organisations).');
const supplyMethod = () => p('supply_method', 'SUPPLY_METHOD', 'ENUM', false, 'How the order reaches the customer.', { values: ['DELIVERY', 'PICK_UP'], defaultValue: 'DELIVERY' });
const webhookId = () => uuid('webhook_id', 'WEBHOOK', 'webhook', true, 'The webhook to call; its URL, method and authentication are set on the webhook.');

type ActionSpec = [code: string, name: string, parameters: ParameterDef[], rules?: ParameterRule[]];

const ACTION_SPECS: Record<string, ActionSpec> = Object.fromEntries(
  ([
    ['REQUEST_APPROVAL', 'Request Approval', [
      p('timeout_seconds', 'TIMEOUT', 'INTEGER', false, 'How long the request waits for a decision before it is REJECTED.', { min: 1, max: 31_536_000, defaultValue: '604800' }),
      uuid('approver_user_id', 'USER', 'user', false, 'The user who decides (informational).'),
      p('approval_entity_type', 'APPROVAL_ENTITY_TYPE', 'STRING', false, 'What is approved, shown on the record.', { max: 100 }),
    ]],
    ['UPDATE_CONTENT', 'Update Content', [
      p('custom_field_key', 'CUSTOM_FIELD_KEY', 'STRING', true, "The custom field of the event's record to set.", { max: 100 }),
      p('custom_field_value', 'CUSTOM_FIELD_VALUE', 'STRING', true, 'Its new value.', { max: 2000 }),
    ]],
    ['COMMUNICATE_CUSTOMER', 'Communicate Customer', [
      ...MESSAGE,
      p('channel', 'CHANNEL', 'ENUM', false, 'The channel.', { values: ['EMAIL', 'SMS', 'INAPP'], defaultValue: 'EMAIL' }),
    ], [MESSAGE_RULE]],
    ['COMMUNICATE_USER', 'Communicate User', [userId(), ...MESSAGE], [MESSAGE_RULE]],
    ['ASSIGN_SPECIFIC_USER', 'Assign To A Specific User', [userId()]],
    ['FULFILLED_BY_SPECIFIC_ORGANISATION', 'Fulfilled By Specific Organisation', [organisationId(), supplyMethod()]],
    ['ASSIGN_SPECIFIC_DEPARTMENT', 'Assign To Specific Department', [departmentId()]],
    ['FULFILLED_BY_NEAREST_LOCATION', 'Fulfilled By Nearest Location', [organisationId(false), supplyMethod()]],
    ['FULFILLED_BY_POST_CODE_COVERAGE', 'Fulfilled Based On Post Code Coverage', [supplyMethod()]],
    ['ASSIGN_USER_OF_SPECIFIC_DEPARTMENT', 'Assign To User Of A Specific Department', [departmentId()]],
    ['ASSIGN_USER_OF_SPECIFIC_USER_ROLE', 'Assign To User Of A Specific User Role', [userRoleId()]],
    ['FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE', 'Fulfilled By User Of A Specific User Role', [userRoleId()]],
    ['FULFILLED_BY_SPECIFIC_USER', 'Fulfilled By Specific User', [userId()]],
    ['POST_WEBHOOK', 'POST Webhook', [webhookId()]],
    ['PUT_WEBHOOK', 'Put Webhook', [webhookId()]],
    ['PROVISION_ORDER_TO_POS_SYSTEM_1', 'Provision Order To POS System 1', [webhookId()]],
    ['PROVISION_ORDER_TO_POS_SYSTEM_2', 'Provision Order To POS System 2', [webhookId()]],
  ] as ActionSpec[]).map((s) => [s[0], s]),
);

const ACTION_DESCRIPTIONS: Record<string, string> = {
  REQUEST_APPROVAL: 'Waits until a user approves or rejects (the Approvals inbox); rejected or timed out, the actions after it do not run.',
  UPDATE_CONTENT: "Sets a custom field of the event's contact.",
  COMMUNICATE_CUSTOMER: "Sends the event's contact a message: e-mail, SMS or in-app.",
  COMMUNICATE_USER: "E-mails one of your organisation's users (a colleague), not the customer.",
  ASSIGN_SPECIFIC_USER: 'Assigns the order or service request to the user chosen.',
  FULFILLED_BY_SPECIFIC_ORGANISATION: 'The organisation or unit chosen fulfils the order or service request.',
  ASSIGN_SPECIFIC_DEPARTMENT: 'Assigns the order or service request to the department chosen.',
  FULFILLED_BY_NEAREST_LOCATION: "The location nearest to the customer's address fulfils the order.",
  FULFILLED_BY_POST_CODE_COVERAGE: "The unit whose post-code coverage includes the customer's post code fulfils the order.",
  ASSIGN_USER_OF_SPECIFIC_DEPARTMENT: 'Assigns it to a user of the department chosen.',
  ASSIGN_USER_OF_SPECIFIC_USER_ROLE: 'Assigns it to a user with the role chosen.',
  FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE: 'A user with the role chosen fulfils it.',
  FULFILLED_BY_SPECIFIC_USER: 'The user chosen fulfils it.',
  POST_WEBHOOK: "Sends the event to one of your webhooks (your CRM or another system): signed, retried until delivered, with the webhook's own method.",
  PUT_WEBHOOK: "The same as POST Webhook (the request also goes with the webhook's own method).",
  PROVISION_ORDER_TO_POS_SYSTEM_1: 'Sends the order to point-of-sale system 1, whose endpoint is set up as a webhook.',
  PROVISION_ORDER_TO_POS_SYSTEM_2: 'Sends the order to point-of-sale system 2, whose endpoint is set up as a webhook.',
};

const ADAPTOR_SPECS: Array<[code: string, name: string, actions: string[]]> = [
  ['APPROVAL_REQUESTS', 'Approval Requests', ['REQUEST_APPROVAL']],
  ['AUTOMATIC_CONTENT_UPDATES', 'Automatic Content Updates', ['UPDATE_CONTENT']],
  ['COMMUNICATIONS', 'Communications', ['COMMUNICATE_CUSTOMER', 'COMMUNICATE_USER']],
  ['ORDER_PROVISION', 'Order Provision', [
    'ASSIGN_SPECIFIC_USER', 'FULFILLED_BY_SPECIFIC_ORGANISATION', 'ASSIGN_SPECIFIC_DEPARTMENT', 'FULFILLED_BY_NEAREST_LOCATION', 'FULFILLED_BY_POST_CODE_COVERAGE',
  ]],
  ['SERVICE_REQUEST_PROVISION', 'Service Request Provision', [
    'ASSIGN_SPECIFIC_USER', 'FULFILLED_BY_SPECIFIC_ORGANISATION', 'ASSIGN_SPECIFIC_DEPARTMENT', 'ASSIGN_USER_OF_SPECIFIC_DEPARTMENT',
    'ASSIGN_USER_OF_SPECIFIC_USER_ROLE', 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE', 'FULFILLED_BY_SPECIFIC_USER',
  ]],
  ['WEBHOOKS', 'Webhooks', ['POST_WEBHOOK', 'PUT_WEBHOOK']],
  ['POS_SYSTEM_1', 'POS System 1 Order Provision', ['PROVISION_ORDER_TO_POS_SYSTEM_1']],
  ['POS_SYSTEM_2', 'POS System 2 Order Provision', ['PROVISION_ORDER_TO_POS_SYSTEM_2']],
];

export const ADAPTORS: readonly AdaptorDef[] = ADAPTOR_SPECS.map(([code, name, actions]) => ({
  id: stableId(`adaptor:${code}`),
  code,
  name,
  // An action code shared by two adaptors is two actions (own id, own records).
  actions: actions.map((a) => {
    const [actionCode, actionName, parameters, rules = []] = ACTION_SPECS[a];
    const description = ACTION_DESCRIPTIONS[actionCode];
    if (!description) throw new Error(`catalogue: the action ${actionCode} has no description`);
    return { id: stableId(`adaptor_action:${code}:${actionCode}`), code: actionCode, name: actionName, description, parameters, rules };
  }),
}));

export const ADAPTOR_CODES = ADAPTOR_SPECS.map(([code]) => code) as [string, ...string[]];
export const ADAPTOR_ACTION_CODES = Object.keys(ACTION_SPECS) as [string, ...string[]];

/** An adaptor by code or id (ids in any case). */
export function findAdaptor(codeOrId: string): AdaptorDef | undefined {
  const key = lookupKey(codeOrId);
  return ADAPTORS.find((a) => a.code.toLowerCase() === key || a.id === key);
}

/** One of the adaptor's actions, by code or id. */
export function findAction(adaptor: AdaptorDef, codeOrId: string): ActionDef | undefined {
  const key = lookupKey(codeOrId);
  return adaptor.actions.find((a) => a.code.toLowerCase() === key || a.id === key);
}

/** Codes are matched case-insensitively; ids in either GUID form. */
const lookupKey = (codeOrId: string) => (isId(codeOrId) ? normaliseId(codeOrId) : codeOrId.toLowerCase());

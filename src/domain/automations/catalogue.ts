// The automation catalogue (spec 2.8, 6; docs/automations.md "Catalogue"): the entities an
// automation binds to with their trigger events and filterable attributes, and the adaptors with
// their actions (each action declared once in ./actions/). Pure data and lookups: published by
// GET /automation_events and GET /adaptors, read by the definitions' validation and by the runs.
import { createHash } from 'node:crypto';
import { CHANNELS } from '../communications/integration-settings';
import { isId, normaliseId } from '../ids';
import type { Classification } from '../money/ledger/entries';
import { ACTIONS } from './actions';
import { ADAPTOR_LIST } from './actions/adaptors';
import type { ActionDeclaration } from './actions/define';

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

// ---------------------------------------------------------------- adaptors and actions

/** An action as one adaptor lists it: its declaration (./actions) with the id it has there. */
export interface ActionDef extends ActionDeclaration {
  id: string;
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

export const ADAPTORS: readonly AdaptorDef[] = ADAPTOR_LIST.map(({ code, name }) => {
  // An action code shared by two adaptors is two actions (own id, own records).
  const actions = ACTIONS.filter((a) => a.adaptors.includes(code)).map((a) => ({ ...a, id: stableId(`adaptor_action:${code}:${a.code}`) }));
  if (!actions.length) throw new Error(`catalogue: no action names the adaptor ${code}`);
  return { id: stableId(`adaptor:${code}`), code, name, actions };
});

export const ADAPTOR_CODES = ADAPTOR_LIST.map((a) => a.code) as [string, ...string[]];
export const ADAPTOR_ACTION_CODES = ACTIONS.map((a) => a.code) as [string, ...string[]];

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

/** The action a stored step names by its codes; none once the catalogue no longer has it. */
export function stepAction(step: { adaptor: string; adaptorAction: string }): ActionDef | undefined {
  const adaptor = findAdaptor(step.adaptor);
  return adaptor && findAction(adaptor, step.adaptorAction);
}

/** Codes are matched case-insensitively; ids in either GUID form. */
const lookupKey = (codeOrId: string) => (isId(codeOrId) ? normaliseId(codeOrId) : codeOrId.toLowerCase());

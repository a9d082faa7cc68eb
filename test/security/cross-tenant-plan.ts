// What test/security/cross-tenant.test.ts probes beyond the examples' own placeholders: the id
// fields and query parameters the examples leave out, the records named by code, and the few
// ids that are not references to another record.
import { resolve, type Json } from '../support/examples';

/** A body patch: `@kind` marks an id of that kind (one probe each), `$fresh` a new text each time; `undefined` removes a field. */
export type Patch = Json;

/** Path parameters that name the service's own catalogue, the same for every organisation. */
export const GLOBAL_PARAMS: Record<string, string> = {
  'reports/{id}': 'the report catalogue',
  'adaptors/{id}': 'the automation adaptor catalogue',
  'actions/{action_id}': "an adaptor's actions, from the catalogue",
};

/** Query parameters by the kind of A's record they are probed with (ids of other systems: A's contact). */
export const QUERY_KINDS: Record<string, string> = {
  username: 'usernames', automation_action_id: 'automation_actions',
  entity_id: 'contacts', call_id: 'contacts', order_id: 'contacts', lead_id: 'contacts', service_request_id: 'contacts',
};

/** A new record's own id, chosen by the client: [operation, field, kind, patch making the example new again]. */
export const OWN_IDS: Array<[string, string, string, Patch]> = [
  ['createContact', 'id', 'contacts', { code: undefined }],
  ['addContactPaymentMethod', 'id', 'payment_methods', {}],
  ['createPurchase', 'id', 'purchases', { reference_number: '$fresh' }],
  ['submitEvent', 'purchase.id', 'purchases', { purchase: { reference_number: '$fresh' } }],
];

/** Id fields of request bodies that reference nothing another organisation could own. */
export const NOT_REFERENCES: Record<string, string> = {
  ...Object.fromEntries(OWN_IDS.map(([id, at]) => [`${id} ${at}`, "the new record's own id (OWN_IDS)"])),
  'addContactPaymentMethod card.classification.id': 'a free reference of the card processor, stored as given',
  'createCreative public_id': "the image's id at its image host, stored as given",
  'updateCreative public_id': "the image's id at its image host, stored as given",
};

/**
 * Slots where a value that names nothing is no error, so 2xx is the "not found" answer: an
 * action's own ids (another one makes a new id), a purchase line's SKU (a line without a
 * catalogue product), and a return's taps (not read).
 */
export const ACCEPTED = new Set([
  'setAutomationActions content[].id',
  'setAutomationActions content[].adaptor_action_parameters[].id',
  'setAutomationActions content[].action_filters[].filters[].id',
  'createPurchase products[].product_sku',
  'submitEvent purchase.products[].product_sku',
  'returnPurchase merchant_tap.id',
  'returnPurchase outlet_tap.id',
]);

/** Every probe's change to B's example body: the story defines renewal_date after its account examples ran. */
export const PROBE_BODY: Record<string, Patch> = {
  createContactAccount: { custom_fields: undefined },
  updateAccount: { custom_fields: undefined },
};

/** Fixtures a probe uses instead of the story's, by field: a member the group does not have yet. */
export const PROBE_USE: Record<string, Record<string, string>> = {
  addAccountMember: { member_account_id: 'spare_account' },
};

const SKU_LINE = { net_amount: 8.2, tax_amount: 1.8, total_amount: 10, quantity: 2 };
const action = (adaptor: string, adaptor_action: string, parameters: Array<[string, string]>) => ({
  content: [{ order: 1, adaptor, adaptor_action, adaptor_action_parameters: parameters.map(([k, v]) => ({ parameter_key: k, parameter_from_value: v })) }],
});

/** [operation, patch of B's example body, fixtures to use by name]. */
export const EXTRA: Array<[string, Patch, Record<string, string>?]> = [
  ['createContact', { code: undefined, category_id: '@contact_categories', accounts: [{ name: 'Main', currency_code: 'EUR', classification_id: '@account_classifications' }] }],
  ['createContact', { code: undefined, category: { id: '@contact_categories' }, accounts: [{ name: 'Main', currency_code: 'EUR', classification: { id: '@account_classifications' } }] }],
  ['createContact', {
    code: undefined, contact_type: 'COMPANY', company_name: 'Probe Ltd', first_name: undefined, last_name: undefined, demographics: undefined,
    company_profile: { industry_id: '@industries', industry_sectors: ['@sectors', { id: '@sectors' }] },
  }],
  ['createContact', { code: undefined, contact_type: 'COMPANY', company_name: 'Probe Ltd', first_name: undefined, last_name: undefined, demographics: undefined, company_profile: { industry: { id: '@industries' } } }],
  ['bulkUpdateContacts', { contacts: [{ contact: { id: '@contacts' }, custom_fields: [{ key: 'tier', value: 'gold' }] }] }],
  ['bulkUpdateContacts', { contacts: [{ contact: { code: '@contact_codes' }, custom_fields: [{ key: 'tier', value: 'gold' }] }] }],
  ['bulkUpdateContacts', { contacts: [{ contact: { code: 'C-1001' }, category: { id: '@contact_categories' } }] }],
  ['updateContact', { category_id: '@contact_categories' }],
  ['updateContact', { category: { id: '@contact_categories' } }],
  ['updateContact', { company_profile: { industry_id: '@industries', industry_sectors: ['@sectors', { id: '@sectors' }] } }],
  ['updateContact', { company_profile: { industry: { id: '@industries' } } }],
  ['updateContact', { addresses: [{ id: '@addresses', address_line_1: '2 Main St' }] }],
  ['updateContact', { emails: [{ id: '@emails', email_address: 'probe@example.com' }] }],
  ['createOrganisationUnit', { code: 'PROBE-UNIT', taps: undefined, parent_id: '@organisations' }],
  ['updateOrganisationUnit', { parent_id: '@organisations' }],
  ['updateOrganisationUnit', { taps: [{ id: '@taps', name: 'Till 2', code: 'CAFE-01-T2' }] }],
  ['updateCreative', { merchant_id: '@organisations' }],
  // The story's automation is of CONTACTS: a simulation on one names a contact.
  ['simulateAutomation', { entity_id: '@contacts' }],
  ['createProduct', { sku: 'PROBE-SKU', product_type_id: '@product_types', product_family_id: '@product_families' }],
  ['updateProduct', { product_type_id: '@product_types', product_family_id: '@product_families' }],
  ...['createSpendCondition', 'updateSpendCondition'].map((id): [string, Patch] => [id, {
    code: 'PROBE-SC', organisations: ['@organisations'],
    products: [{ id_type: 'PRODUCT', id: '@products' }, { id_type: 'TYPE', id: '@product_types' }, { id_type: 'FAMILY', id: '@product_families' }],
  }]),
  ['addAccountMember', { product_types: ['@product_types'], product_families: ['@product_families'] }],
  ['updateAccountMember', { funding_scope: 'PARTIALLY', products: ['@products'], product_types: ['@product_types'], product_families: ['@product_families'] }],
  ['createContactAccount', { classification_id: '@account_classifications', billing_address_id: '@addresses' }],
  ['updateAccount', { classification_id: '@account_classifications', billing_address_id: '@addresses' }],
  ['createWallet', { auto_topup: { threshold: 5, amount: 20, payment_method: 'CARD', payment_method_id: '@payment_methods' } }],
  ['updateWallet', { auto_topup: { threshold: 5, amount: 20, payment_method: 'CARD', payment_method_id: '@payment_methods' } }],
  ['postJournal', { spend_condition_id: '@spend_conditions' }],
  ['createRewardScheme', { code: 'PROBE-RS', merchants: ['@organisations'] }],
  ['createRewardOffer', { code: 'PROBE-RO', merchants: ['@organisations'], spend_condition_id: '@spend_conditions' }],
  ['createRewardOffer', { code: 'PROBE-RO', voucher_type_id: '@voucher_types' }],
  ['updateRewardOffer', { products: [{ id_type: 'PRODUCT', id: '@products' }], spend_condition_id: '@spend_conditions' }],
  ['updateRewardOffer', { voucher_type_id: '@voucher_types' }],
  ['issueVoucher', { contact_id: '@contacts' }],
  ['issueVoucher', { contact_id: '@contact_codes' }],
  ['createPurchase', { reference_number: 'PROBE-P', classification: { id: '@purchase_classifications' }, outlet_tap: { id: '@taps' } }],
  ['createPurchase', { reference_number: 'PROBE-P', merchant_tap: { id: '@taps' } }],
  ['createPurchase', { reference_number: 'PROBE-P', merchant_tap: { code: '@tap_codes' } }],
  ['createPurchase', { reference_number: '$fresh', products: [{ product_sku: '@product_skus', ...SKU_LINE }] }],
  ['returnPurchase', { amount: 0.01, merchant_tap: { id: '@taps' }, outlet_tap: { id: '@taps' } }],
  ['submitEvent', { purchase: { reference_number: 'PROBE-E', classification: { id: '@purchase_classifications' }, outlet_tap: { id: '@taps' } } }],
  ['submitEvent', { purchase: { reference_number: 'PROBE-E', merchant_tap: { id: '@taps' } } }],
  ['submitEvent', { purchase: { reference_number: '$fresh', products: [{ product_sku: '@product_skus', ...SKU_LINE }] } }],
  ['createSegment', { code: 'PROBE-SEG', type: 'STATIC', filters: undefined, contact_ids: ['@contacts'] }],
  ['updateDepartment', { organisation_id: '@organisations' }],
  ['updatePostCodeCoverage', { organisation_id: '@organisations' }],
  ...['createCommunicationPlan', 'updateCommunicationPlan'].map((id): [string, Patch] => [id, { segments: ['@segments'], integrations: ['@integrations'] }]),
  ['createCommunication', { contact_id: '@contacts', integration_id: '@integrations' }],
  ['createCommunication', { contact_id: '@contact_codes' }],
  ['renderCommunicationTemplate', { contact_id: '@contacts' }],
  ['renderCommunicationTemplate', { contact_id: '@contact_codes' }],
  ['createCommunication', { subject: undefined, content: undefined, template_id: '@communication_templates' }],
  ['setAutomationActions', action('COMMUNICATIONS', 'COMMUNICATE_CUSTOMER', [['template_id', '@communication_templates']])],
  ['setAutomationActions', action('COMMUNICATIONS', 'COMMUNICATE_CUSTOMER', [['subject', 'Hi'], ['content', 'Hello'], ['integration_id', '@integrations']])],
  ['setAutomationActions', action('COMMUNICATIONS', 'COMMUNICATE_USER', [['user_id', '@users'], ['subject', 'Hi'], ['content', 'Hello']])],
  ['setAutomationActions', action('APPROVAL_REQUESTS', 'REQUEST_APPROVAL', [['approver_user_id', '@users']])],
  ['setAutomationActions', action('ORDER_PROVISION', 'ASSIGN_SPECIFIC_DEPARTMENT', [['department_id', '@departments']])],
  ['setAutomationActions', action('ORDER_PROVISION', 'FULFILLED_BY_SPECIFIC_ORGANISATION', [['organisation_id', '@organisations']])],
  ['setAutomationActions', action('SERVICE_REQUEST_PROVISION', 'ASSIGN_USER_OF_SPECIFIC_USER_ROLE', [['user_role_id', '@user_roles']])],
  ['setAutomationActions', {
    content: [{
      id: '@automation_actions', order: 1, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK',
      adaptor_action_parameters: [{ id: '@automation_parameters', parameter_key: 'webhook_id', parameter_from_value: '@webhooks' }],
      action_filters: [{ filters: [{ id: '@automation_filters', attribute: 'CONTACT_TYPE', type: 'STRING', operator: 'EQUAL', value: 'PERSON' }] }],
    }],
  }],
  ['createActivity', { entity: { type: 'CONTACT', id: '@contacts' } }],
  ['createActivity', { entity: { type: 'ACCOUNT', id: '@accounts' } }],
  ['createActivity', { entity: { type: 'PURCHASE', id: '@purchases' } }],
  ['updateActivity', { organisation_id: '@organisations' }],
];

const variants = (doc: Json, s: Json): Json[] => {
  const node = resolve(doc, s);
  if (!node) return [];
  return [node, ...['oneOf', 'anyOf', 'allOf'].flatMap((k) => ((node[k] ?? []) as Json[]).flatMap((x) => variants(doc, x)))];
};
const NAMED = /(^id|_id|_ids|^ids|^products|^merchants|^segments|^phones)$/;
const isString = (doc: Json, s: Json) => variants(doc, s).some((v) => v.type === 'string');
const isGuid = (doc: Json, s: Json) => variants(doc, s).some((v) => v.type === 'string' && /GUID/.test(v.description ?? ''));

/**
 * The id fields of a request body schema (`a.b[].c`, `a.ids[]`): GUID-typed fields and items,
 * and string fields and string items named like references.
 */
export function idFields(doc: Json, schema: Json, at = '', out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return out;
  const named = NAMED.test(at.split('.').pop() ?? '');
  for (const v of variants(doc, schema)) {
    if (v.type === 'string' && at && (named || isGuid(doc, v))) out.add(at);
    if (v.items) {
      if (isGuid(doc, v.items) || (named && isString(doc, v.items))) out.add(`${at}[]`);
      idFields(doc, v.items, `${at}[]`, out, depth + 1);
    }
    for (const [k, x] of Object.entries((v.properties ?? {}) as Json)) idFields(doc, x, at ? `${at}.${k}` : k, out, depth + 1);
  }
  return out;
}

// The examples' story (docs/DEVELOPING.md "Examples"): every request example of the OpenAPI
// document, sent in the order of PLAN to one organisation, with id placeholders filled by the
// records of the right kind. test/openapi-examples.test.ts sends it whole; the cross-tenant
// probes (test/security/cross-tenant.test.ts) build two organisations' records with it.
import { eventually } from '../communications/helpers';
import { api, type ApiResponse } from './api';
import type { Tenant } from './tenants';

export type Json = Record<string, any>;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids of other systems (an activity's LEAD, a bulk update's call): any id is valid, kept as is. */
export const EXTERNAL = 'external';

/** The kind of record an id placeholder stands for, by the name of its field or query parameter. */
export const FIELD_KINDS: Record<string, string> = {
  contact_id: 'contacts', ids: 'contacts', contact_ids: 'contacts',
  member_account_id: 'member_accounts', transfer_to_account_id: 'accounts',
  wallet_id: 'wallets', products: 'products', phones: 'phones',
  merchants: 'organisations', merchant_id: 'organisations', organisation_id: 'organisations', signed_up_organisation_id: 'organisations', parent_id: 'organisations',
  preferred_payment_method_id: 'payment_methods', reward_scheme_id: 'reward_schemes', tier_id: 'reward_tiers',
  voucher_type_id: 'voucher_types', user_id: 'users', user_ids: 'users', segments: 'segments', webhook_id: 'webhooks',
  category_id: 'contact_categories', product_type_id: 'product_types', product_family_id: 'product_families',
  spend_condition_id: 'spend_conditions', automation_id: 'automations',
  order_id: EXTERNAL, lead_id: EXTERNAL, service_request_id: EXTERNAL, entity_id: EXTERNAL, call_id: EXTERNAL, automation_action_id: EXTERNAL,
};
/** `{id_type, id}` (reward offer products) and `{type, id}` (activity entity) name their kind. */
export const TYPED_KINDS: Record<string, string> = {
  PRODUCT: 'products', TYPE: 'product_types', FAMILY: 'product_families',
  CONTACT: 'contacts', ACCOUNT: 'accounts', PURCHASE: 'purchases', LEAD: EXTERNAL, ORDER: EXTERNAL, SERVICE_REQUEST: EXTERNAL,
};

export interface Op {
  id: string;
  method: string;
  path: string;
  params: Json[];
  example?: unknown;
}

export interface Step {
  /** Fixtures to use instead of the kind's current one, by path parameter or field name. */
  use?: Record<string, string>;
  /** Values only the service knows (a token, a secret), by body field. */
  values?: (s: Story) => Json;
  /** The kind the response `id` is kept as (default: a POST to a collection keeps it as that collection). */
  saves?: string;
  /** Sent with the user token of the login example instead of the organisation's secret key. */
  asUser?: boolean;
  before?: (s: Story) => Promise<void>;
  after?: (s: Story, res: ApiResponse) => Promise<void>;
}

/** Where a placeholder sits: `path`, `query` or `body`, its name, and its JSON path in the body. */
export interface Slot {
  in: 'path' | 'query' | 'body';
  name: string;
  at: string;
  kind: string;
}
/** Gives a placeholder its value; the default is the story's record of that kind. */
export type Pick = (slot: Slot) => string;

/** One organisation's run of the story: the records it made, by kind, and what only the service knew. */
export class Story {
  readonly fx: Record<string, string> = {};
  readonly known: Json = {};

  constructor(
    readonly doc: Json,
    readonly t: Tenant,
  ) {}

  async call(method: string, route: string, body?: unknown): Promise<any> {
    const res = await api(method, route, { key: this.t.secretKey, body });
    if (res.status !== 200) throw new Error(`fixture ${method} ${route}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  }

  /** Records no example makes, and spares for the examples that end a record's life. */
  async fixtures(): Promise<void> {
    const { fx } = this;
    fx.users = (await this.call('GET', '/users')).content[0].id;
    fx.adaptors = 'APPROVAL_REQUESTS';
    fx.actions = 'REQUEST_APPROVAL';
    const approval = await this.call('POST', '/automations', { name: 'Examples: approval', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'ACTIVE' });
    await this.call('POST', `/automations/${approval.id}/actions`, {
      content: [{ order: 1, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [{ parameter_key: 'timeout_seconds', parameter_from_value: '600' }] }],
    });
    const spare = await this.call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Spare', last_name: 'Contact', accounts: [{ name: 'Spare', currency_code: 'EUR' }] });
    fx.spare_contact = spare.id;
    fx.records = (
      await eventually(async () => {
        const { content } = await this.call('GET', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records?automation_id=${approval.id}`);
        return content.find((r: Json) => r.entity.id === spare.id && r.status === 'PENDING');
      }, 30_000, 'the approval record')
    ).id;
    await this.call('PUT', `/automations/${approval.id}`, { state: 'INACTIVE' });
    const [account] = (await this.call('GET', `/contacts/${spare.id}/accounts`)).accounts;
    fx.spare_account = account.id;
    fx.spare_wallet = (await this.call('POST', `/accounts/${account.id}/wallets`, {})).id;
    fx.spare_unit = (await this.call('POST', '/organisations', { code: 'SPARE', name: 'Spare unit', type: 'VENUE' })).id;
    fx.spare_period = (await this.call('POST', '/accounting_periods', { name: 'December 2024', start_date: 1733011200, end_date: 1735689600 })).id;
    fx.spare_product = (await this.call('POST', '/products', { sku: 'SPARE-01', name: 'Spare' })).id;
    fx.spare_reward_scheme = (await this.call('POST', '/reward_schemes', { name: 'Spare', sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['example.org'] })).id;
    fx.spare_voucher_type = (
      await this.call('POST', '/voucher_types', { name: 'Spare', value_type: 'FIXED', value: 1, currency_code: 'EUR', validity_period: 1, validity_uot: 'YEAR', classification: 'GIFT', category: 'IDENTIFIES_CUSTOMER' })
    ).id;
  }

  fixture(kind: string, name: string, step: Step): string {
    const value = this.fx[step.use?.[name] ?? kind];
    if (value === undefined) throw new Error(`no fixture of kind ${step.use?.[name] ?? kind} for ${name}`);
    return value;
  }

  /** The example's request, each placeholder given by `pick` (in order: path, query, body). */
  request(op: Op, step: Step, pick: Pick = (slot) => this.fixture(slot.kind, slot.name, step)): { url: string; body?: unknown } {
    const path = op.path.replace(/([^/]+)\/\{(\w+)\}/g, (_, collection: string, name: string) => {
      const example = op.params.find((p) => p.in === 'path' && p.name === name)?.example;
      const value = typeof example === 'string' && !UUID.test(example) ? example : pick({ in: 'path', name, at: name, kind: collection });
      return `${collection}/${encodeURIComponent(value)}`;
    });
    const query = op.params
      .filter((p) => p.in === 'query' && p.example !== undefined)
      .map((p) => `${p.name}=${encodeURIComponent(String(fill(p.example, (s) => pick({ ...s, in: 'query' }), p.name)))}`);
    const body = op.example === undefined ? undefined : { ...(fill(op.example, (s) => pick({ ...s, in: 'body' })) as Json), ...step.values?.(this) };
    return { url: query.length ? `${path}?${query.join('&')}` : path, body };
  }

  /** Sends one step of the plan and keeps the id it made; a failure is described, not thrown. */
  async send(op: Op, step: Step): Promise<{ res?: ApiResponse; failure?: string }> {
    let res: ApiResponse;
    try {
      await step.before?.(this);
      const { url, body } = this.request(op, step);
      const auth = step.asUser ? { token: this.known.access_token } : { key: this.t.secretKey };
      res = await api(op.method, url, { ...auth, body });
    } catch (err) {
      return { failure: `${op.id}: ${(err as Error).message}` };
    }
    if (res.status < 200 || res.status > 299) return { res, failure: `${op.id}: ${res.status} ${res.text.slice(0, 300)}` };
    const collection = op.method === 'POST' ? /\/(\w+)$/.exec(op.path)?.[1] : undefined;
    const saves = step.saves ?? collection;
    if (saves && typeof res.body?.id === 'string') this.fx[saves] = res.body.id;
    await step.after?.(this, res);
    return { res };
  }
}

/** The documented order: creates before what reads or changes them, ends of life last. */
export const PLAN: Array<[string, Step?]> = [
  ['health'],
  ['login', { values: (s) => ({ username: s.t.admin.username, password: s.t.admin.password }), after: async (s, res) => void (s.known.refresh_token = res.body.refresh_token) }],
  ['refreshToken', {
    values: (s) => ({ refresh_token: s.known.refresh_token }),
    after: async (s, res) => void Object.assign(s.known, { access_token: res.body.access_token, refresh_token: res.body.refresh_token }),
  }],
  ['getCurrentUser'],
  // Revokes the refresh token only: the access token stays valid for runReport (asUser).
  ['logout', { values: (s) => ({ refresh_token: s.known.refresh_token }) }],
  ['createApiKey'], ['listApiKeys'],
  ['createContactCategory'], ['listContactCategories'], ['getContactCategory'], ['updateContactCategory'],
  ['createIndustry'], ['listIndustries'], ['getIndustry'], ['updateIndustry'],
  ['createIndustrySector'], ['listIndustrySectors'], ['getIndustrySector'], ['updateIndustrySector'],
  ['createKycProfile'], ['listKycProfiles'], ['getKycProfile'], ['updateKycProfile'],
  ['createAccountClassification'], ['listAccountClassifications'], ['getAccountClassification'], ['updateAccountClassification'],
  ['getNameDisplaySettings'], ['setNameDisplaySettings'], ['listCountries'],
  ['getSettings'], ['updateSettings'],
  ['createOrganisationUnit'], ['listOrganisationUnits'], ['getOrganisationUnit'], ['updateOrganisationUnit'],
  // Of the story's unit, a MERCHANT: GET /merchants (listMerchants) then shows it.
  ['createCreative'], ['listCreatives'], ['getCreative'], ['updateCreative'],
  ['createContact', {
    after: async (s, res) => {
      const contact = await s.call('GET', `/contacts/${res.body.id}`);
      s.fx.phones = contact.phones[0].id;
      s.fx.member_accounts = (await s.call('GET', `/contacts/${res.body.id}/accounts`)).accounts[0].id;
    },
  }],
  ['bulkUpdateContacts'], ['searchContacts'], ['getContact'], ['updateContact'], ['setContactConsent'], ['setContactCredentials'],
  ['addContactPaymentMethod'], ['listContactPaymentMethods'],
  ['contactProfiles'],
  ['createProductType'], ['listProductTypes'], ['getProductType'], ['updateProductType'],
  ['createProductFamily'], ['listProductFamilies'], ['getProductFamily'], ['updateProductFamily'],
  ['createProduct'], ['listProducts'], ['getProduct'], ['updateProduct'],
  ['createSpendCondition'], ['listSpendConditions'], ['getSpendCondition'], ['updateSpendCondition'],
  ['createAccountingPeriod'], ['listAccountingPeriods'], ['getAccountingPeriod'], ['updateAccountingPeriod'], ['closeAccountingPeriod', { use: { id: 'spare_period' } }],
  ['createContactAccount'], ['listContactAccounts'], ['updateAccount'], ['getAccountFinancials'],
  ['addAccountMember'], ['listAccountMembers'], ['updateAccountMember'],
  ['createWallet'], ['updateWallet'], ['getWalletBalances'],
  ['postJournal', { saves: 'wallet_transactions' }], ['listContactWallets'], ['listContactWalletTransactions'],
  // Before a purchase spends the credit it would take back.
  ['voidWalletTransaction'],
  ['createRewardScheme'], ['listRewardSchemes'], ['getRewardScheme'], ['updateRewardScheme'],
  ['createRewardTier'], ['listRewardTiers'], ['getRewardTier'], ['updateRewardTier'],
  ['createRewardOffer'], ['listRewardOffers'], ['getRewardOffer'], ['updateRewardOffer'],
  ['createVoucherType'], ['listVoucherTypes'], ['getVoucherType'], ['updateVoucherType'],
  ['createPurchaseClassification'], ['listPurchaseClassifications'], ['getPurchaseClassification'], ['updatePurchaseClassification'],
  ['updateAccountRewards'], ['getAccountRewards'], ['addAccountMerchants', { saves: 'account_merchants' }], ['joinRewardScheme', { saves: 'sign_ups' }], ['listMerchants'],
  ['issueVoucher', {
    after: async (s, res) => {
      s.known.secret_number = res.body.secret_number;
      s.fx.spare_voucher = (await s.call('POST', '/vouchers', { voucher_type_id: s.fx.voucher_types, contact_id: 'C-1001' })).id;
    },
  }],
  ['listVouchers'], ['getVoucher'], ['useVoucher', { values: (s) => ({ secret_number: s.known.secret_number }) }],
  ['createPurchase'], ['listPurchases'], ['returnPurchase'], ['submitEvent', { saves: 'events' }], ['getActivityFeed'],
  ['createIntegration'], ['listIntegrations'], ['getIntegration'], ['updateIntegration'],
  ['createSegment'], ['listSegments'], ['getSegment'], ['updateSegment'], ['listSegmentContacts'],
  ['createDepartment'], ['listDepartments'], ['getDepartment'], ['updateDepartment'],
  ['createUserRole'], ['listUserRoles'], ['getUserRole'], ['updateUserRole'],
  ['createPostCodeCoverage'], ['listPostCodeCoverages'], ['getPostCodeCoverage'], ['updatePostCodeCoverage'],
  // Usernames are unique across the service, and the story runs in several organisations. The
  // new user's access changes; the admin's token goes on (runReport).
  ['createUser', { saves: 'created_users', values: (s) => ({ username: `examples-${s.t.organisationId}` }) }],
  ['listUsers'], ['getUser'],
  ['updateUser', { use: { id: 'created_users' } }], ['resetUserPassword', { use: { id: 'created_users' } }], ['revokeUserSessions', { use: { id: 'created_users' } }],
  ['createCustomField'], ['listCustomFields'], ['getCustomField'], ['updateCustomField'],
  ['createCommunicationPlan'], ['listCommunicationPlans'], ['getCommunicationPlan'], ['updateCommunicationPlan'],
  ['createCommunicationTemplate'], ['listCommunicationTemplates'], ['getCommunicationTemplate'], ['renderCommunicationTemplate'], ['updateCommunicationTemplate'],
  ['createCommunication'], ['listCommunications'], ['getCommunication'], ['updateCommunication'],
  ['getCommunicationLimits'], ['updateCommunicationLimits'],
  ['createWebhook'], ['listWebhooks'], ['getWebhook'], ['updateWebhook'], ['rotateWebhookSecret'],
  ['testWebhook', { saves: 'webhook_requests' }],
  ['listAutomationEvents'], ['listAdaptors'],
  ['createAutomation'], ['listAutomations'], ['getAutomation'], ['updateAutomation'], ['setAutomationActions', { saves: 'automation_actions' }], ['listAutomationActions'], ['listAutomationRuns'],
  ['simulateAutomation'], ['listAutomationSimulations', {
    // A replay of the last day (the example is RECORD mode: it makes none).
    before: async (s) => {
      const now = Math.floor(Date.now() / 1000);
      const res = await api('POST', `/automations/${s.fx.automations}/simulations`, { key: s.t.secretKey, body: { from_date: now - 86_400, to_date: now } });
      if (res.status !== 202) throw new Error(`fixture replay: ${res.status} ${res.text.slice(0, 300)}`);
      s.fx.simulations = res.body.id;
    },
  }],
  ['getAutomationSimulation'], ['cancelAutomationSimulation'], ['getAutomationPerformance'],
  ['listWebhookRequests'], ['getWebhookRequest'],
  ['listAdaptorActionRecords'], ['getAdaptorActionRecord'], ['changeAdaptorActionRecord'],
  ['createActivity'], ['listActivities'], ['getActivity'], ['updateActivity'], ['setActivityLifeCycleState'],
  ['listReports'], ['getReport'], ['runReport', {
    saves: 'runs', asUser: true,
    // The run is mailed to the admin whose token runs it.
    before: async (s) => void (await s.call('PUT', `/users/${s.fx.users}`, { email: 'ops@shop.test' })),
  }], ['previewReport'], ['listReportRuns'], ['getReportRun'],
  ['getOrganisationAnalytics'], ['getContactAnalytics'], ['contactRewardsAnalysis'], ['contactOrderAnalysis'],
  // Ends of life: on the examples' records where nothing names them any more, else on spares.
  ['cancelPurchase'],
  ['cancelVoucher', { use: { id: 'spare_voucher' } }],
  ['moveWallet', { use: { id: 'spare_wallet' } }],
  ['cancelWallet', { use: { id: 'spare_wallet' } }],
  ['setAccountLifeCycleState', { use: { id: 'spare_account' } }],
  ['anonymizeContact', { use: { id: 'spare_contact' } }],
  ['deleteActivity'], ['deleteAutomation'], ['deleteWebhook'], ['deleteCommunicationTemplate'], ['deleteCommunicationPlan'],
  ['deleteCustomField'], ['deletePostCodeCoverage'], ['deleteUserRole'], ['deleteDepartment'], ['deleteSegment'], ['deleteIntegration', {
    use: { id: 'spare_integration' },
    before: async (s) => void (s.fx.spare_integration = (await s.call('POST', '/integrations', { name: 'Spare', channel: 'EMAIL', provider: 'SMTP', settings: { host: 'smtp.example.com', port: 587, secure: false, from_address: 'spare@example.com' } })).id),
  }],
  ['leaveRewardScheme'], ['removeAccountMerchant', { use: { merchant_id: 'organisations' } }], ['removeAccountMember'],
  ['deletePurchaseClassification'], ['deleteVoucherType', { use: { id: 'spare_voucher_type' } }], ['deleteRewardOffer'], ['deleteRewardTier'], ['deleteRewardScheme', { use: { id: 'spare_reward_scheme' } }],
  ['deleteAccountingPeriod'], ['deleteSpendCondition'], ['deleteProduct', { use: { id: 'spare_product' } }], ['deleteProductFamily'], ['deleteProductType'],
  ['deleteContactPaymentMethod'], ['deleteCreative'], ['deleteOrganisationUnit', { use: { id: 'spare_unit' } }],
  ['deleteAccountClassification'], ['deleteKycProfile'], ['deleteIndustrySector'], ['deleteIndustry'], ['deleteContactCategory'],
  ['revokeApiKey'],
];

/** Where the ends of life start: every step before it leaves the story's records alive. */
export const ENDS_OF_LIFE = PLAN.findIndex(([id]) => id === 'cancelPurchase');

export function resolve(doc: Json, node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return resolve(doc, node.$ref.replace(/^#\//, '').split('/').reduce((at: Json, key: string) => at?.[key], doc));
}

export function operations(doc: Json): Map<string, Op> {
  const ops = new Map<string, Op>();
  for (const [path, methods] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json)) {
      const params = ((op.parameters ?? []) as Json[]).map((p) => resolve(doc, p));
      ops.set(op.operationId, { id: op.operationId, method: method.toUpperCase(), path, params, example: op.requestBody?.content['application/json'].example });
    }
  }
  return ops;
}

/** An id placeholder's kind: its field's name, or what its object says it is. */
export function kindOf(key: string, parentKey: string | undefined, parent: Json): string | undefined {
  if (key === 'id') return parent.id_type ? TYPED_KINDS[parent.id_type] : parent.type ? TYPED_KINDS[parent.type] : parentKey && FIELD_KINDS[parentKey];
  if (key === 'parameter_from_value') return FIELD_KINDS[parent.parameter_key];
  return FIELD_KINDS[key];
}

/** The value with every id placeholder replaced; ids of other systems are kept. */
export function fill(value: unknown, pick: (slot: Omit<Slot, 'in'>) => string, key = '', parentKey?: string, parent: Json = {}, at = key): unknown {
  if (Array.isArray(value)) return value.map((v, i) => fill(v, pick, key, parentKey, parent, `${at}.${i}`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, pick, k, key || parentKey, value as Json, at ? `${at}.${k}` : k)]));
  }
  if (typeof value !== 'string' || !UUID.test(value)) return value;
  const kind = kindOf(key, parentKey, parent);
  if (!kind) throw new Error(`an id in field ${key} names no kind of record`);
  return kind === EXTERNAL ? value : pick({ name: key, at, kind });
}

// Automations over HTTPS (docs/automations.md "Definitions", "Catalogue"): the catalogue, CRUD
// with the state alias, action sequences replaced with stable ids, and every rule's 4xx.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { ASSIGNMENT_ACTIONS, assignmentParameters } from '../../src/domain/assignments/resolve';
import { ADAPTORS } from '../../src/domain/automations/catalogue';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

type Json = Record<string, any>;

let a: Tenant;
let b: Tenant;
let root: Db;
const refs: Record<string, string> = {};

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Automations A'), createTenant('Automations B')]);
  root = openDatabase();
  const db = scopedClient(root, a.organisationId);
  refs.webhook = newId();
  await db.webhook.create({
    data: { id: refs.webhook, organisationId: a.organisationId, name: 'Hook', method: 'POST', urlEndpoint: 'https://example.com/hook', urlAuth: 'NO_AUTH', secret: 'whsec_test' },
  });
  refs.department = newId();
  await db.department.create({ data: { id: refs.department, organisationId: a.organisationId, name: 'Support' } });
  refs.userRole = newId();
  await db.userRole.create({ data: { id: refs.userRole, organisationId: a.organisationId, name: 'Agent' } });
  refs.user = (await root.user.findFirstOrThrow({ where: { username: a.admin.username } })).id;
  refs.template = await createId(a.secretKey, '/communication_templates', { name: 'Hi', contents: [{ language: 'eng', subject: 'Hi', plain_content: 'Hello' }] });
  refs.unit = await createId(a.secretKey, '/organisations', { code: 'SHOP', name: 'Shop', type: 'MERCHANT' });
});

afterAll(async () => {
  await root?.$disconnect();
});

const create = (body: object, key = a.secretKey) => api('POST', '/automations', { key, body });
const setActions = (id: string, content: object[], key = a.secretKey) => api('POST', `/automations/${id}/actions`, { key, body: { content } });
const actionsOf = async (id: string) => {
  const res = await api('GET', `/automations/${id}/actions`, { key: a.secretKey });
  expect(res.status).toBe(200);
  return res.body.content;
};
const webhookStep = (order: number, extra: object = {}) => ({
  order, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK',
  adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: refs.webhook }], ...extra,
});

test('catalogue: entities with events and typed attributes; adaptors with stable ids, actions and parameters', async () => {
  const events = await api('GET', '/automation_events', { key: a.secretKey });
  expect(events.status).toBe(200);
  const contacts = events.body.content.find((e: { entity: string }) => e.entity === 'CONTACTS');
  expect(contacts.events.map((e: { event: string }) => e.event)).toEqual(['REGISTER_CONTACT', 'UPDATE_CONTACT', 'ANONYMIZE_CONTACT', 'AWARD_CUSTOMER']);
  expect(contacts.attributes).toContainEqual({
    code: 'NAME', label: 'Name', type: 'STRING', operators: expect.arrayContaining(['CONTAINS', 'STARTS_WITH']), value_type: 'STRING', allowed_values: null, values_from: null,
  });
  expect(events.body.content.map((e: { entity: string }) => e.entity)).toEqual(['CONTACTS', 'PURCHASES', 'WALLETS', 'VOUCHERS', 'COMMUNICATIONS']);
  const purchases = events.body.content.find((e: { entity: string }) => e.entity === 'PURCHASES');
  expect(purchases.attributes).toContainEqual({
    code: 'TOTAL_AMOUNT', label: 'Total amount', type: 'NUMBER', operators: ['EQUAL', 'NOT_EQUAL', 'LESS', 'EQUAL_LESS', 'GREATER', 'EQUAL_GREATER', 'IN'],
    value_type: 'NUMBER', allowed_values: null, values_from: null,
  });

  const adaptors = await api('GET', '/adaptors', { key: a.secretKey });
  expect(adaptors.status).toBe(200);
  expect(adaptors.body.content.map((x: { code: string }) => x.code)).toEqual([
    'APPROVAL_REQUESTS', 'AUTOMATIC_CONTENT_UPDATES', 'COMMUNICATIONS', 'ORDER_PROVISION', 'SERVICE_REQUEST_PROVISION', 'WEBHOOKS', 'POS_SYSTEM_1', 'POS_SYSTEM_2',
  ]);
  const approval = adaptors.body.content[0];
  expect(approval).toMatchObject({ code: 'APPROVAL_REQUESTS', name: 'Approval Requests', id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) });
  expect(approval.actions[0].parameters[0]).toEqual({
    parameter_key: 'timeout_seconds', parameter_type: 'TIMEOUT', value_type: 'INTEGER', required: false, default_value: '604800',
    allowed_values: null, minimum: 1, maximum: 31536000, description: expect.any(String),
  });
  // Every action says what it does (the console's action picker shows it).
  for (const adaptor of adaptors.body.content) for (const action of adaptor.actions) expect(action.description).toMatch(/^[A-Z].{20,}\.$/);
  // Add To Segment follows Update Content; its segment is a record the console offers by name (parameter_type SEGMENT).
  const content = adaptors.body.content.find((x: { code: string }) => x.code === 'AUTOMATIC_CONTENT_UPDATES');
  expect(content.actions.map((x: { code: string }) => x.code)).toEqual(['UPDATE_CONTENT', 'ADD_TO_SEGMENT']);
  expect(content.actions[1]).toMatchObject({ name: 'Add To Segment', parameters: [{
    parameter_key: 'segment_id', parameter_type: 'SEGMENT', value_type: 'UUID', required: true, default_value: null, allowed_values: null, minimum: null, maximum: null,
  }] });
  const service = adaptors.body.content.find((x: { code: string }) => x.code === 'SERVICE_REQUEST_PROVISION');
  expect(service.actions).toHaveLength(7);
  const order = adaptors.body.content.find((x: { code: string }) => x.code === 'ORDER_PROVISION');
  const shared = (x: { actions: Array<{ code: string; id: string }> }) => x.actions.find((y) => y.code === 'ASSIGN_SPECIFIC_USER')!.id;
  expect(shared(order)).not.toBe(shared(service));
  // Stable: the same on a second read and for another organisation.
  expect((await api('GET', '/adaptors', { key: b.secretKey })).body).toEqual(adaptors.body);
});

test('catalogue values: each attribute says what a value is, its closed list, or the API list that has the values', async () => {
  const entities = (await api('GET', '/automation_events', { key: a.secretKey })).body.content as Array<{ entity: string; attributes: Json[] }>;
  const attribute = (entity: string, code: string) => entities.find((e) => e.entity === entity)!.attributes.find((x) => x.code === code);
  const values = (entity: string, code: string) => {
    const { value_type, allowed_values, values_from } = attribute(entity, code)!;
    return { value_type, allowed_values, values_from };
  };
  expect(values('CONTACTS', 'COUNTRY_CODE')).toEqual({ value_type: 'COUNTRY_CODE', allowed_values: null, values_from: { path: '/countries', value: 'code', label: 'name' } });
  expect(values('CONTACTS', 'CONTACT_TYPE')).toEqual({ value_type: 'ENUM', allowed_values: ['PERSON', 'COMPANY'], values_from: null });
  expect(values('COMMUNICATIONS', 'CHANNEL')).toEqual({ value_type: 'ENUM', allowed_values: ['EMAIL', 'SMS', 'INAPP'], values_from: null });
  expect(values('CONTACTS', 'IS_ANONYMIZED')).toEqual({ value_type: 'BOOLEAN', allowed_values: ['true', 'false'], values_from: null });
  expect(values('CONTACTS', 'LANGUAGE_CODE')).toEqual({ value_type: 'LANGUAGE_CODE', allowed_values: null, values_from: null });
  expect(values('CONTACTS', 'CATEGORY_ID')).toEqual({ value_type: 'UUID', allowed_values: null, values_from: { path: '/contact_categories', value: 'id', label: 'name' } });
  expect(values('CONTACTS', 'ACCOUNT_IDS')).toEqual({ value_type: 'UUID', allowed_values: null, values_from: null });
  expect(values('CONTACTS', 'CREATED_ON').value_type).toBe('DATE');
  expect(values('WALLETS', 'CLASSIFICATION').allowed_values).toEqual(expect.arrayContaining(['CREDIT', 'DEBIT', 'AWARD', 'SPEND', 'TOPUP', 'EXPIRY']));

  // Every values_from is a list operation of this API whose items have the value and label fields.
  const doc = (await api('GET', '/openapi.json')).body;
  const resolve = (node: Json): Json => (typeof node?.$ref === 'string' ? resolve(node.$ref.slice(2).split('/').reduce((at: Json, k: string) => at[k], doc)) : node);
  const froms = new Map(entities.flatMap((e) => e.attributes).filter((x) => x.values_from).map((x) => [x.values_from.path, x.values_from]));
  expect(froms.size).toBeGreaterThan(3);
  for (const from of froms.values()) {
    const list = resolve(doc.paths[from.path]?.get?.responses['200'].content['application/json'].schema ?? {});
    const item = resolve(list.properties?.content?.items ?? {});
    expect([from.path, Object.keys(item.properties ?? {})]).toEqual([from.path, expect.arrayContaining([from.value, from.label])]);
    expect([from.path, (await api('GET', `${from.path}?size=1`, { key: a.secretKey })).status]).toEqual([from.path, 200]);
  }
});

test("the catalogue's assignment parameters are the resolver's (supply_method aside: it is only recorded)", () => {
  const provision = ADAPTORS.filter((x) => x.code === 'ORDER_PROVISION' || x.code === 'SERVICE_REQUEST_PROVISION').flatMap((x) => x.actions);
  expect(new Set(provision.map((x) => x.code))).toEqual(new Set(ASSIGNMENT_ACTIONS));
  for (const action of provision) {
    const params = action.parameters.filter((p) => p.key !== 'supply_method');
    const expected = assignmentParameters(action.code as (typeof ASSIGNMENT_ACTIONS)[number]);
    expect([action.code, params.filter((p) => p.required).map((p) => p.key), params.filter((p) => !p.required).map((p) => p.key)])
      .toEqual([action.code, expected.required, expected.optional]);
  }
});

test('create, read, list with filters, update with state or life_cycle_state, delete', async () => {
  const id = await createId(a.secretKey, '/automations', { name: 'Welcome', description: 'Greets', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  const read = await api('GET', `/automations/${id}`, { key: a.secretKey });
  expect(read.body).toEqual({
    id, name: 'Welcome', description: 'Greets', life_cycle_state: 'INACTIVE', entity: 'CONTACTS', event: 'REGISTER_CONTACT', action_count: 0,
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  const other = await createId(a.secretKey, '/automations', { name: 'Big purchases', life_cycle_state: 'ACTIVE', entity: 'PURCHASES', event: 'PURCHASE_POSTED' });

  for (const [query, expected] of [
    ['search_value=elco', [id]], ['name=WELCOME', [id]], ['name=welc', []], ['state=ACTIVE', [other]], ['life_cycle_state=INACTIVE', [id]],
    ['entity=PURCHASES', [other]], ['event=REGISTER_CONTACT', [id]], ['sort=name&order=ASC', [other, id]],
  ] as Array<[string, string[]]>) {
    const list = await api('GET', `/automations?${query}`, { key: a.secretKey });
    expect([query, list.status, list.body.content.map((x: { id: string }) => x.id)]).toEqual([query, 200, expected]);
  }
  const page = await api('GET', '/automations?size=1&page=2&sort=name&order=ASC', { key: a.secretKey });
  expect(page.body.paging).toEqual({ page: 2, size: 1, total: 2 });

  expect((await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { state: 'ACTIVE' } })).body).toEqual({ id });
  expect((await api('GET', `/automations/${id}`, { key: a.secretKey })).body.life_cycle_state).toBe('ACTIVE');
  await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { life_cycle_state: 'INACTIVE', name: 'Hello', description: null, event: 'AWARD_CUSTOMER' } });
  expect((await api('GET', `/automations/${id}`, { key: a.secretKey })).body).toMatchObject({ life_cycle_state: 'INACTIVE', name: 'Hello', description: null, event: 'AWARD_CUSTOMER' });
  expect((await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { state: 'ACTIVE', life_cycle_state: 'ACTIVE' } })).status).toBe(200);
  expectError(await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { state: 'ACTIVE', life_cycle_state: 'INACTIVE' } }), 400, 'INVALID_REQUEST', 'life_cycle_state');
  expectError(await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { event: 'PURCHASE_POSTED' } }), 400, 'INVALID_REQUEST', 'event');
  // The entity changes with its event while there are no actions; not once there are.
  expect((await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { entity: 'WALLETS', event: 'WALLET_TRANSACTION_POSTED' } })).status).toBe(200);
  expect((await setActions(id, [webhookStep(1)])).status).toBe(200);
  expectError(await api('PUT', `/automations/${id}`, { key: a.secretKey, body: { entity: 'CONTACTS', event: 'REGISTER_CONTACT' } }), 409, 'AUTOMATION_HAS_ACTIONS', 'entity');

  expect((await api('DELETE', `/automations/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await api('GET', `/automations/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expect(await scopedClient(root, a.organisationId).automationAction.count({ where: { automationId: id } })).toBe(0);
  expectError(await api('DELETE', `/automations/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
});

test('create: the event must be the entity\'s; unknown entity, event, state; missing name', async () => {
  expectError(await create({ name: 'x', entity: 'CONTACTS', event: 'PURCHASE_POSTED' }), 400, 'INVALID_REQUEST', 'event');
  expectError(await create({ name: 'x', entity: 'LEADS', event: 'REGISTER_CONTACT' }), 400, 'INVALID_REQUEST', 'entity');
  expectError(await create({ name: 'x', entity: 'CONTACTS', event: 'NOPE' }), 400, 'INVALID_REQUEST', 'event');
  expectError(await create({ name: 'x', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'PAUSED' }), 400, 'INVALID_REQUEST', 'life_cycle_state');
  expectError(await create({ entity: 'CONTACTS', event: 'REGISTER_CONTACT' }), 400, 'INVALID_REQUEST', 'name');
  expectError(await create({ name: 'x', entity: 'CONTACTS', event: 'REGISTER_CONTACT', state: 'ACTIVE' }), 400, 'INVALID_REQUEST', 'state');
});

test('actions: replaced whole, in order; ids of actions, parameters and filters kept when given back', async () => {
  const id = await createId(a.secretKey, '/automations', { name: 'Sequence', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  const first = [
    webhookStep(2, { path: 'main', action_filters: [{ filters: [{ attribute: 'CONTACT_TYPE', type: 'STRING', operator: 'EQUAL', value: 'PERSON' }] }, { filters: [{ attribute: 'ACCOUNT_IDS', operator: 'IN', value_list: ['x'] }] }] }),
    {
      order: 1, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL',
      adaptor_action_parameters: [
        { parameter_key: 'timeout_seconds', parameter_from_value: 3600, parameter_group: 'g' },
        { parameter_key: 'approval_entity_type', parameter_from_value: 'LEAD', parameter_type: 'APPROVAL_ENTITY_TYPE' },
        { parameter_key: 'approver_user_id', parameter_from_value: refs.user.replace(/-/g, '').toUpperCase() },
      ],
    },
  ];
  expect((await setActions(id, first)).body).toEqual({ id });
  const stored = await actionsOf(id);
  expect(stored).toEqual([
    {
      id: expect.any(String), order: 1, path: null, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL',
      adaptor_action_parameters: [
        { id: expect.any(String), parameter_group: 'g', parameter_key: 'timeout_seconds', parameter_from_value: '3600', parameter_to_value: null, parameter_type: 'TIMEOUT' },
        { id: expect.any(String), parameter_group: null, parameter_key: 'approval_entity_type', parameter_from_value: 'LEAD', parameter_to_value: null, parameter_type: 'APPROVAL_ENTITY_TYPE' },
        { id: expect.any(String), parameter_group: null, parameter_key: 'approver_user_id', parameter_from_value: refs.user, parameter_to_value: null, parameter_type: 'USER' },
      ],
      action_filters: [],
    },
    {
      id: expect.any(String), order: 2, path: 'main', adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK',
      adaptor_action_parameters: [{ id: expect.any(String), parameter_group: null, parameter_key: 'webhook_id', parameter_from_value: refs.webhook, parameter_to_value: null, parameter_type: 'WEBHOOK' }],
      action_filters: [
        { filters: [{ id: expect.any(String), attribute: 'CONTACT_TYPE', type: 'STRING', operator: 'EQUAL', value: 'PERSON', value_list: null }] },
        { filters: [{ id: expect.any(String), attribute: 'ACCOUNT_IDS', type: 'LIST', operator: 'IN', value: null, value_list: ['x'] }] },
      ],
    },
  ]);
  expect(await actionsOf(id)).toEqual(stored); // stable on re-read
  expect((await api('GET', `/automations/${id}`, { key: a.secretKey })).body.action_count).toBe(2);

  // What was read, sent back with one step dropped and one added: kept ids stay, the new step gets one.
  const next = [{ ...stored[1], order: 1 }, webhookStep(2, { id: UNKNOWN_ID })];
  expect((await setActions(id, next)).status).toBe(200);
  const again = await actionsOf(id);
  expect(again[0]).toEqual({ ...stored[1], order: 1 });
  expect(again[1].id).not.toBe(UNKNOWN_ID);
  expect(again.map((x: { id: string }) => x.id)).not.toContain(stored[0].id);

  // Another automation's action id is not taken over.
  const other = await createId(a.secretKey, '/automations', { name: 'Other', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  await setActions(other, [webhookStep(1, { id: again[0].id })]);
  expect((await actionsOf(other))[0].id).not.toBe(again[0].id);
  expect((await actionsOf(id))[0].id).toBe(again[0].id);

  expect((await setActions(id, [])).status).toBe(200);
  expect(await actionsOf(id)).toEqual([]);
});

test('actions: every rule answers 400 naming its field, and nothing is half-written', async () => {
  const id = await createId(a.secretKey, '/automations', { name: 'Rules', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  await setActions(id, [webhookStep(1)]);
  const before = await actionsOf(id);
  const cases: Array<[object[], string]> = [
    [[webhookStep(1), webhookStep(1)], 'content.1.order'],
    [[webhookStep(0)], 'content.0.order'],
    [[{ ...webhookStep(1), adaptor: 'NOPE' }], 'content.0.adaptor'],
    [[{ ...webhookStep(1), adaptor_action: 'REQUEST_APPROVAL' }], 'content.0.adaptor_action'],
    [[{ ...webhookStep(1), adaptor: 'ORDER_PROVISION', adaptor_action: 'ASSIGN_USER_OF_SPECIFIC_USER_ROLE' }], 'content.0.adaptor_action'],
    [[webhookStep(1, { adaptor_action_parameters: [{ parameter_key: 'url', parameter_from_value: 'x' }] })], 'content.0.adaptor_action_parameters.0.parameter_key'],
    [[webhookStep(1, { adaptor_action_parameters: [] })], 'content.0.adaptor_action_parameters'],
    [[webhookStep(1, { adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: 'not-a-guid' }] })], 'content.0.adaptor_action_parameters.0.parameter_from_value'],
    [[webhookStep(1, { adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: refs.webhook, parameter_type: 'USER' }] })], 'content.0.adaptor_action_parameters.0.parameter_type'],
    [[webhookStep(1, { adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: refs.webhook }, { parameter_key: 'webhook_id', parameter_from_value: refs.webhook }] })], 'content.0.adaptor_action_parameters.1.parameter_key'],
    [[{ order: 1, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [{ parameter_key: 'timeout_seconds', parameter_from_value: 0 }] }], 'content.0.adaptor_action_parameters.0.parameter_from_value'],
    [[{ order: 1, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [{ parameter_key: 'timeout_seconds', parameter_from_value: '31536001' }] }], 'content.0.adaptor_action_parameters.0.parameter_from_value'],
    [[{ order: 1, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [{ parameter_key: 'subject', parameter_from_value: 'Hi' }] }], 'content.0.adaptor_action_parameters'],
    [[{ order: 1, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [{ parameter_key: 'template_id', parameter_from_value: refs.template }, { parameter_key: 'channel', parameter_from_value: 'FAX' }] }], 'content.0.adaptor_action_parameters.1.parameter_from_value'],
    [[{ order: 1, adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT', adaptor_action_parameters: [{ parameter_key: 'custom_field_key', parameter_from_value: 'tier' }] }], 'content.0.adaptor_action_parameters'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'TOTAL_AMOUNT', operator: 'EQUAL', value: 1 }] }] })], 'content.0.action_filters.0.filters.0.attribute'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'NAME', operator: 'EQUAL', value: 'x' }, { attribute: 'NAME', type: 'NUMBER', operator: 'EQUAL', value: 'x' }] }] })], 'content.0.action_filters.0.filters.1.type'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'AMOUNT', operator: 'STARTS_WITH', value: '1' }] }] })], 'content.0.action_filters.0.filters.0.operator'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'AMOUNT', operator: 'NOPE', value: '1' }] }] })], 'content.0.action_filters.0.filters.0.operator'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'NAME', operator: 'IN', value: 'x' }] }] })], 'content.0.action_filters.0.filters.0.value'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'NAME', operator: 'IN' }] }] })], 'content.0.action_filters.0.filters.0.value_list'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'AMOUNT', operator: 'GREATER' }] }] })], 'content.0.action_filters.0.filters.0.value'],
    [[webhookStep(1, { action_filters: [{ filters: [{ attribute: 'AMOUNT', operator: 'GREATER', value: 'lots' }] }] })], 'content.0.action_filters.0.filters.0.value'],
    [[webhookStep(1, { action_filters: [{ filters: [] }] })], 'content.0.action_filters.0.filters'],
    [Array.from({ length: 51 }, (_, i) => webhookStep(i + 1)), 'content'],
  ];
  for (const [content, attribute] of cases) {
    const res = await setActions(id, content);
    expect([attribute, res.status, res.body.attribute]).toEqual([attribute, 400, attribute]);
  }
  expect(await actionsOf(id)).toEqual(before);
});

test('actions: a GUID parameter naming no record of the organisation is 400 naming it; existing ones pass', async () => {
  const id = await createId(a.secretKey, '/automations', { name: 'Refs', entity: 'PURCHASES', event: 'PURCHASE_POSTED' });
  const step = (adaptor: string, action: string, params: Array<[string, string]>) => ({
    order: 1, adaptor, adaptor_action: action, adaptor_action_parameters: params.map(([k, v]) => ({ parameter_key: k, parameter_from_value: v })),
  });
  const valid: Array<[string, string, Array<[string, string]>]> = [
    ['WEBHOOKS', 'PUT_WEBHOOK', [['webhook_id', refs.webhook]]],
    ['POS_SYSTEM_1', 'PROVISION_ORDER_TO_POS_SYSTEM_1', [['webhook_id', refs.webhook]]],
    ['COMMUNICATIONS', 'COMMUNICATE_CUSTOMER', [['template_id', refs.template]]],
    ['COMMUNICATIONS', 'COMMUNICATE_USER', [['user_id', refs.user], ['subject', 'New order'], ['content', 'Look']]],
    ['ORDER_PROVISION', 'ASSIGN_SPECIFIC_DEPARTMENT', [['department_id', refs.department]]],
    ['ORDER_PROVISION', 'FULFILLED_BY_SPECIFIC_ORGANISATION', [['organisation_id', refs.unit], ['supply_method', 'pick_up']]],
    ['ORDER_PROVISION', 'FULFILLED_BY_SPECIFIC_ORGANISATION', [['organisation_id', a.organisationId]]],
    ['ORDER_PROVISION', 'FULFILLED_BY_NEAREST_LOCATION', []],
    ['SERVICE_REQUEST_PROVISION', 'ASSIGN_USER_OF_SPECIFIC_USER_ROLE', [['user_role_id', refs.userRole]]],
  ];
  for (const [adaptor, action, params] of valid) {
    const res = await setActions(id, [step(adaptor, action, params)]);
    expect([action, res.status, res.text]).toEqual([action, 200, JSON.stringify({ id })]);
  }
  const unknown: Array<[string, string, Array<[string, string]>, number]> = [
    ['WEBHOOKS', 'POST_WEBHOOK', [['webhook_id', UNKNOWN_ID]], 0],
    ['COMMUNICATIONS', 'COMMUNICATE_CUSTOMER', [['template_id', UNKNOWN_ID]], 0],
    ['COMMUNICATIONS', 'COMMUNICATE_CUSTOMER', [['template_id', refs.template], ['integration_id', UNKNOWN_ID]], 1],
    ['COMMUNICATIONS', 'COMMUNICATE_USER', [['user_id', UNKNOWN_ID], ['template_id', refs.template]], 0],
    ['APPROVAL_REQUESTS', 'REQUEST_APPROVAL', [['approver_user_id', UNKNOWN_ID]], 0],
    ['SERVICE_REQUEST_PROVISION', 'ASSIGN_USER_OF_SPECIFIC_DEPARTMENT', [['department_id', UNKNOWN_ID]], 0],
    ['SERVICE_REQUEST_PROVISION', 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE', [['user_role_id', UNKNOWN_ID]], 0],
    ['ORDER_PROVISION', 'FULFILLED_BY_SPECIFIC_ORGANISATION', [['organisation_id', b.organisationId]], 0],
  ];
  for (const [adaptor, action, params, m] of unknown) {
    const res = await setActions(id, [webhookStep(1), { ...step(adaptor, action, params), order: 2 }]);
    expectError(res, 400, 'INVALID_REQUEST', `content.1.adaptor_action_parameters.${m}.parameter_from_value`);
  }
  // Another organisation's webhook is unknown here.
  const hookB = newId();
  await scopedClient(root, b.organisationId).webhook.create({
    data: { id: hookB, organisationId: b.organisationId, name: 'B', method: 'POST', urlEndpoint: 'https://example.com/b', urlAuth: 'NO_AUTH', secret: 'whsec_b' },
  });
  expectError(await setActions(id, [step('WEBHOOKS', 'POST_WEBHOOK', [['webhook_id', hookB]])]), 400, 'INVALID_REQUEST', 'content.0.adaptor_action_parameters.0.parameter_from_value');
});

test("tenancy: another organisation's automation is 404 everywhere", async () => {
  const id = await createId(a.secretKey, '/automations', { name: 'Mine', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  const key = b.secretKey;
  expectError(await api('GET', `/automations/${id}`, { key }), 404, 'NOT_FOUND');
  expectError(await api('PUT', `/automations/${id}`, { key, body: { name: 'Theirs' } }), 404, 'NOT_FOUND');
  expectError(await api('DELETE', `/automations/${id}`, { key }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/automations/${id}/actions`, { key }), 404, 'NOT_FOUND');
  expectError(await setActions(id, [], key), 404, 'NOT_FOUND');
  expect((await api('GET', '/automations', { key })).body.content).toEqual([]);
  expect((await api('GET', `/automations/${id}`, { key: a.secretKey })).body.name).toBe('Mine');
});

test('scopes: automations:read reads only; another group is 403; no key is 401', async () => {
  const reader = await keyWith(a.secretKey, ['automations:read']);
  const stranger = await keyWith(a.secretKey, ['contacts']);
  expect((await api('GET', '/automations', { key: reader })).status).toBe(200);
  expect((await api('GET', '/adaptors', { key: reader })).status).toBe(200);
  expectError(await create({ name: 'x', entity: 'CONTACTS', event: 'REGISTER_CONTACT' }, reader), 403, 'FORBIDDEN');
  expectError(await api('GET', '/automation_events', { key: stranger }), 403, 'FORBIDDEN');
  expectError(await api('GET', '/automations', { key: stranger }), 403, 'FORBIDDEN');
  expect((await api('GET', '/automations')).status).toBe(401);
});

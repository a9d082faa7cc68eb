// The automation actions as declared (src/domain/automations/actions/; docs/automations.md
// "Catalogue"): each once, the ids stored data and clients hold unchanged, and how each is run.
import { ADAPTOR_ACTION_CODES, ADAPTORS, stepAction } from '../../src/domain/automations/catalogue';
import type { RunContext } from '../../src/domain/automations/actions/run-context';

test('each action is declared once, and an adaptor lists each of its actions once', () => {
  expect(new Set(ADAPTOR_ACTION_CODES).size).toBe(ADAPTOR_ACTION_CODES.length);
  for (const adaptor of ADAPTORS) expect([adaptor.code, new Set(adaptor.actions.map((a) => a.code)).size]).toEqual([adaptor.code, adaptor.actions.length]);
});

test('the ids are the ones derived from the codes since the catalogue began', () => {
  expect(Object.fromEntries(ADAPTORS.map((a) => [a.code, a.id]))).toEqual({
    APPROVAL_REQUESTS: 'e1aa6b50-653c-5955-b70e-c25b556a7970',
    AUTOMATIC_CONTENT_UPDATES: 'e023d339-262b-5b09-972f-4f7b653066e2',
    COMMUNICATIONS: 'f5b0f818-3ccb-589a-819b-2f656ad89c19',
    ORDER_PROVISION: '215b849f-b024-5856-b25f-d7ecfe482ccb',
    SERVICE_REQUEST_PROVISION: '06ee434a-e45a-56fd-9812-2d9781a64b5d',
    WEBHOOKS: '610d2187-6ce4-5518-bdc2-a201e1348d19',
    POS_SYSTEM_1: 'ae7b1c86-b385-5727-b2b7-359a8aa4f615',
    POS_SYSTEM_2: '90cef715-b675-59a0-b4bb-bc62f3a47bd8',
  });
  const id = (adaptor: string, action: string) => stepAction({ adaptor, adaptorAction: action })?.id;
  expect(id('ORDER_PROVISION', 'ASSIGN_SPECIFIC_USER')).toBe('d974401b-025c-567d-b000-8418649b5dd0');
  expect(id('SERVICE_REQUEST_PROVISION', 'ASSIGN_SPECIFIC_USER')).toBe('03fbeea9-c9ed-5286-bcc1-32a0f55ea217');
  expect(id('WEBHOOKS', 'POST_WEBHOOK')).toBe('968f80f1-89db-58b4-8f02-fbc8245b563a');
  expect(id('POS_SYSTEM_2', 'PROVISION_ORDER_TO_POS_SYSTEM_2')).toBe('8a97d910-65e1-5085-8b3c-161fe4da26a0');
  // Added by the recipe (docs/DEVELOPING.md "Adding an automation action"): derived from its code, held from its first release.
  expect(id('AUTOMATIC_CONTENT_UPDATES', 'ADD_TO_SEGMENT')).toBe('1e1bf083-22da-543f-90a3-7649f94d03df');
});

test('how a run performs each: an approval waits, the webhook adaptors post, the rest act in the step', () => {
  const kinds = Object.fromEntries(ADAPTORS.map((a) => [a.code, [...new Set(a.actions.map((x) => x.performer.kind))]]));
  expect(kinds).toEqual({
    APPROVAL_REQUESTS: ['approval'],
    AUTOMATIC_CONTENT_UPDATES: ['transaction'],
    COMMUNICATIONS: ['transaction'],
    ORDER_PROVISION: ['transaction'],
    SERVICE_REQUEST_PROVISION: ['transaction'],
    WEBHOOKS: ['webhook'],
    POS_SYSTEM_1: ['webhook'],
    POS_SYSTEM_2: ['webhook'],
  });
  expect(stepAction({ adaptor: 'WEBHOOKS', adaptorAction: 'GONE_ACTION' })).toBeUndefined();
});

test("a webhook action's request carries the event, typed by the event or, for a point-of-sale system, ORDER_PROVISION", () => {
  const ctx = (adaptor: string, adaptorAction: string): RunContext => ({
    organisationId: 'org',
    automation: { id: 'auto', name: 'Orders', entity: 'PURCHASES' },
    entity: { type: 'PURCHASES', id: 'purchase', reference: null },
    event: { id: 'event', type: 'PURCHASE_POSTED', createdOn: 1767225600, payload: { purchase_id: 'purchase', call_id: 'call' } },
    step: { actionId: 'action', adaptor, adaptorAction, parameters: { webhook_id: 'hook' } },
    workflowId: 'run',
  });
  const request = (adaptor: string, action: string) => {
    const performer = stepAction({ adaptor, adaptorAction: action })!.performer;
    if (performer.kind !== 'webhook') throw new Error(`${action} posts no webhook`);
    return performer.request(ctx(adaptor, action));
  };
  expect(request('WEBHOOKS', 'PUT_WEBHOOK')).toEqual({
    webhookId: 'hook',
    type: 'PURCHASE_POSTED',
    data: { event: { id: 'event', type: 'PURCHASE_POSTED' }, entity: { type: 'PURCHASES', id: 'purchase' }, automation: { id: 'auto', name: 'Orders' }, purchase_id: 'purchase', call_id: 'call' },
    callId: 'call',
    causeKey: 'event:auto:action',
    createdOn: new Date(1767225600 * 1000),
  });
  expect(request('POS_SYSTEM_1', 'PROVISION_ORDER_TO_POS_SYSTEM_1').type).toBe('ORDER_PROVISION');
});

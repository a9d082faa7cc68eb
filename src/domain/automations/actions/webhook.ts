// The webhook-posting actions (Webhooks and the point-of-sale adaptors): a signed, retried webhook
// request carrying the event (docs/webhooks.md), written by the step of ../webhook-step.ts.
import { defineAction, reference, type ActionDeclaration, type Performer, type StepWebhookRequest } from './define';
import type { RunContext } from './run-context';

const webhookId = () => reference('webhook_id', 'WEBHOOK', 'webhook', true, 'The webhook to call; its URL, method and authentication are set on the webhook.');

/** The request of the step: the event's payload, named by the run; `type` the event's type unless given. */
function requestOf(ctx: RunContext, type = ctx.event.type): StepWebhookRequest {
  return {
    webhookId: ctx.step.parameters.webhook_id,
    type,
    data: {
      event: { id: ctx.event.id, type: ctx.event.type },
      entity: { type: ctx.entity.type, id: ctx.entity.id },
      automation: { id: ctx.automation.id, name: ctx.automation.name },
      ...ctx.event.payload,
    },
    callId: typeof ctx.event.payload.call_id === 'string' ? ctx.event.payload.call_id : null,
    causeKey: `${ctx.event.id}:${ctx.automation.id}:${ctx.step.actionId}`,
    createdOn: new Date(ctx.event.createdOn * 1000),
  };
}

/** A webhook-posting action: its one parameter is the webhook. */
const posting = (action: Omit<ActionDeclaration, 'rules' | 'parameters'>) => defineAction({ ...action, parameters: [webhookId()] });

const postsEvent: Performer = { kind: 'webhook', request: (ctx) => requestOf(ctx) };
// The point-of-sale system's endpoint is configured as a webhook; its requests say what they are.
const provisionsOrder: Performer = { kind: 'webhook', request: (ctx) => requestOf(ctx, 'ORDER_PROVISION') };

export const postWebhook = posting({
  code: 'POST_WEBHOOK', name: 'POST Webhook', adaptors: ['WEBHOOKS'], performer: postsEvent,
  description: "Sends the event to one of your webhooks (your CRM or another system): signed, retried until delivered, with the webhook's own method.",
});
export const putWebhook = posting({
  code: 'PUT_WEBHOOK', name: 'Put Webhook', adaptors: ['WEBHOOKS'], performer: postsEvent,
  description: "The same as POST Webhook (the request also goes with the webhook's own method).",
});
/** The spec's "Provision Order To the point-of-sale system", one per point-of-sale adaptor. */
const provisionOrderToPosSystem = (n: 1 | 2) => posting({
  code: `PROVISION_ORDER_TO_POS_SYSTEM_${n}`, name: `Provision Order To POS System ${n}`, adaptors: [`POS_SYSTEM_${n}`], performer: provisionsOrder,
  description: `Sends the order to point-of-sale system ${n}, whose endpoint is set up as a webhook.`,
});
export const provisionOrderToPosSystem1 = provisionOrderToPosSystem(1);
export const provisionOrderToPosSystem2 = provisionOrderToPosSystem(2);

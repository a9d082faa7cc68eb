import { api } from '../support/api';
import { expectedSignature, type Received } from '../webhooks/receiver';

export { eventually } from '../communications/helpers';
export { startReceiver } from '../webhooks/receiver';

/** The JSON body a receiver got (null when it was not JSON). */
export function json(r: Received): any {
  try {
    return JSON.parse(r.body);
  } catch {
    return null;
  }
}

/** Standard Webhooks: one of the header's `v1,<sig>` values is the secret's signature. */
export function signatureValid(r: Received, secret: string): boolean {
  return String(r.headers['webhook-signature'] ?? '').split(' ').includes(expectedSignature(secret, r));
}

type Call = (method: string, route: string, body?: object) => Promise<any>;

/** A caller that expects 200 and answers the body. */
export function caller(key: string, options: { baseUrl?: string; ca?: string } = {}): Call {
  return async (method, route, body) => {
    const res = await api(method, route, { ...options, key, body });
    expect([method, route, res.status, res.status === 200 ? '' : res.text]).toEqual([method, route, 200, '']);
    return res.body;
  };
}

/** An ACTIVE automation on `event` with the given action sequence. */
export async function automation(call: Call, event: string, actions: object[], entity = 'CONTACTS'): Promise<string> {
  const { id } = await call('POST', '/automations', { name: `On ${event} ${Math.random().toString(36).slice(2, 7)}`, entity, event, life_cycle_state: 'ACTIVE' });
  await call('POST', `/automations/${id}/actions`, { content: actions.map((a, i) => ({ order: i + 1, ...a })) });
  return id;
}

export const param = (key: string, value: string | number) => ({ parameter_key: key, parameter_from_value: String(value) });

export const postWebhook = (webhookId: string, filters: object[] = []) => ({
  adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [param('webhook_id', webhookId)], action_filters: filters,
});

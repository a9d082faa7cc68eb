// Shapes of the webhook operations' answers and bodies, named from the generated paths.
import type { paths } from '@api/schema';
import type { Body, Get } from '../api/types';

export type WebhookListItem = Get<'/webhooks'>['content'][number];
export type Webhook = Get<'/webhooks/{id}'>['content'][number];
export type WebhookCreate = Body<'/webhooks', 'post'>;
export type WebhookUpdate = Body<'/webhooks/{id}', 'put'>;
export type UrlAuth = Webhook['url_auth'];
export type Method = Webhook['method'];
export type WebhookRequest = Get<'/webhook_requests'>['content'][number];
export type RequestState = WebhookRequest['state'];
export type WebhookRequestWithAttempts = Get<'/webhook_requests/{id}'>;
export type RequestQuery = NonNullable<paths['/webhook_requests']['get']['parameters']['query']>;

export const METHODS: Method[] = ['POST', 'PUT'];
export const REQUEST_STATES: RequestState[] = ['PENDING', 'SUCCESS', 'FAILED'];

/** How each url_auth reads in the console, and the credentials it needs. */
export const URL_AUTHS: { value: UrlAuth; label: string }[] = [
  { value: 'NO_AUTH', label: 'None (signature only)' },
  { value: 'USERNAME_PASSWORD', label: 'Username and password (Basic)' },
  { value: 'API_KEY', label: 'API key (api_key header)' },
];

export const STATE_COLOURS: Record<RequestState, string> = { PENDING: 'yellow', SUCCESS: 'green', FAILED: 'red' };

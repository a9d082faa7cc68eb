// One HTTP attempt of a webhook request (docs/webhooks.md "Delivery"), through the outbound
// gateway (src/outbound): the endpoint is judged again on the address DNS answers now and the
// connection goes to exactly that address; no redirects; one deadline for the whole answer.
import { OutboundFailed, OutboundRefused, sendHttp, type OutboundConfig } from '../../outbound';

/** Stored response bodies are cut to this many bytes; the gateway reads no more. */
export const RESPONSE_LIMIT = 4096;

export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendResult {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  responseBody: string | null;
  /** Why the attempt is not a success: null for a 2xx. */
  error: string | null;
}

export async function sendOnce(out: Outgoing, opts: { timeoutMs: number; config: OutboundConfig }): Promise<SendResult> {
  const startedAt = new Date();
  const done = (r: Omit<SendResult, 'startedAt' | 'durationMs'>): SendResult => ({ startedAt, durationMs: Date.now() - startedAt.getTime(), ...r });
  try {
    const answer = await sendHttp(opts.config, { ...out, timeoutMs: opts.timeoutMs, maxResponseBytes: RESPONSE_LIMIT });
    const status = answer.status;
    const ok = status >= 200 && status < 300;
    const responseBody = answer.body.toString('utf8').replace(/\u0000/g, '');
    return done({ statusCode: status, responseBody, error: ok ? null : `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` });
  } catch (err) {
    if (!(err instanceof OutboundRefused || err instanceof OutboundFailed)) throw err;
    return done({ statusCode: null, responseBody: null, error: err instanceof OutboundRefused ? `refused: ${err.message}` : err.message });
  }
}

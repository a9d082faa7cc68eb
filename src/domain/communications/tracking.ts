// E-mail tracking (docs/communications.md "Tracking"): a 1×1 pixel and rewritten links, each
// carrying a token that is an HMAC over the organisation, the communication, the purpose and
// (for a click) the URL, so a token can neither be forged nor moved to another communication
// or another URL.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isId, normaliseId } from '../ids';
import { escapeHtml } from './render';

export type TrackingPurpose = 'open' | 'click';

/** The tracking key: derived from the JWT secret (shared by every replica), for this use only. */
export function trackingKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('communication-tracking').digest();
}

function mac(key: Buffer, organisationId: string, communicationId: string, purpose: TrackingPurpose, url: string): string {
  return createHmac('sha256', key).update(`${organisationId}\n${communicationId}\n${purpose}\n${url}`).digest('base64url').slice(0, 32);
}

/** `<organisation id>.<communication id>.<mac>` */
export function trackingToken(key: Buffer, organisationId: string, communicationId: string, purpose: TrackingPurpose, url = ''): string {
  return `${organisationId}.${communicationId}.${mac(key, organisationId, communicationId, purpose, url)}`;
}

/** The ids a token names when its MAC holds for this purpose and URL, else null. */
export function verifyToken(key: Buffer, token: string, purpose: TrackingPurpose, url = ''): { organisationId: string; communicationId: string } | null {
  const [organisationId, communicationId, given, ...rest] = token.split('.');
  if (rest.length || !given || !isId(organisationId ?? '') || !isId(communicationId ?? '')) return null;
  const org = normaliseId(organisationId);
  const id = normaliseId(communicationId);
  const expected = Buffer.from(mac(key, org, id, purpose, url));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { organisationId: org, communicationId: id };
}

const unescapeAttr = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * The e-mail's HTML with every http(s) link rewritten to `{base}/t/{token}/click?u=<url>` and
 * the pixel `{base}/t/{token}.gif` appended (before `</body>` when there is one).
 */
export function instrumentHtml(html: string, base: string, key: Buffer, organisationId: string, communicationId: string): string {
  const rewritten = html.replace(/(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi, (_whole, head: string, quote: string, raw: string) => {
    const url = unescapeAttr(raw);
    const token = trackingToken(key, organisationId, communicationId, 'click', url);
    return `${head}${quote}${escapeHtml(`${base}/t/${token}/click?u=${encodeURIComponent(url)}`)}${quote}`;
  });
  const pixel = `<img src="${escapeHtml(`${base}/t/${trackingToken(key, organisationId, communicationId, 'open')}.gif`)}" width="1" height="1" alt="" style="display:none">`;
  return /<\/body>/i.test(rewritten) ? rewritten.replace(/<\/body>/i, `${pixel}</body>`) : `${rewritten}${pixel}`;
}

/** A 1×1 transparent GIF. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * Where tracking links point: PUBLIC_BASE_URL (the address clients reach the API at, e.g.
 * `https://api.example.com/backoffice/v1`), else `https://<HOST>:<PORT>/backoffice/v1` with
 * 0.0.0.0 read as localhost (right for a local run only).
 */
export function trackingBase(config: { HOST: string; PORT: number; PUBLIC_BASE_URL?: string }): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `https://${host}:${config.PORT}/backoffice/v1`;
}

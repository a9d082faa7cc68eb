// The HTTP SMS provider's request body (docs/communications.md "HTTP SMS provider"): the
// template with {{to}}, {{message}} and {{from}} filled in, each value encoded for the body's
// content type, so that a value never adds structure (a field, an element) to the request.

export const SMS_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'application/xml', 'text/plain'] as const;
export type SmsContentType = (typeof SMS_CONTENT_TYPES)[number];

/** `name=value` pairs joined by `&`, placeholders allowed in names and values. */
const FORM = /^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/;

/** The settings' content type, or the template's shape for settings stored without one. */
export function smsContentType(template: string, given?: SmsContentType | null): SmsContentType {
  if (given) return given;
  const t = template.trim();
  if (/^[[{]/.test(t)) return 'application/json';
  if (t.startsWith('<')) return 'application/xml';
  if (FORM.test(t)) return 'application/x-www-form-urlencoded';
  return 'text/plain';
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Each value as it may stand inside a body of that type: a JSON string's content, a form component, XML text or attribute. */
const ENCODE: Record<SmsContentType, (value: string) => string> = {
  'application/json': (v) => JSON.stringify(v).slice(1, -1),
  'application/x-www-form-urlencoded': encodeURIComponent,
  'application/xml': (v) => v.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]),
  // Nothing in plain text has a structure a value could add to.
  'text/plain': (v) => v,
};

export function renderSmsBody(template: string, contentType: SmsContentType, values: { to: string; message: string; from: string }): string {
  const encode = ENCODE[contentType];
  return template.replace(/\{\{\s*(to|message|from)\s*\}\}/g, (_w, name: keyof typeof values) => encode(values[name]));
}

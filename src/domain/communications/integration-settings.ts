// An integration's provider settings (docs/communications.md "Integrations"): which providers a
// channel has, each provider's settings schema, and the write-only secrets. The request schemas
// take `settings` as an object; the rule here runs on the merged result (a partial update may
// change the provider, or leave secrets out to keep the stored ones), naming `settings.<field>`.
import { z } from 'zod';
import { invalid } from '../errors';
import { whenParsed, zBool } from '../input-values';
import { SMS_CONTENT_TYPES } from './sms-body';

export const CHANNELS = ['EMAIL', 'SMS', 'INAPP'] as const;
export type Channel = (typeof CHANNELS)[number];
export const PROVIDERS = ['SMTP', 'SYSTEM', 'HTTP', 'INAPP'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The providers of each channel. */
export const CHANNEL_PROVIDERS: Record<Channel, readonly Provider[]> = { EMAIL: ['SMTP', 'SYSTEM'], SMS: ['HTTP'], INAPP: ['INAPP'] };

const text = (max: number) => z.string().trim().min(1).max(max);

export const smtpSettings = z.strictObject({
  host: text(253),
  port: z.number().int().min(1).max(65535),
  secure: zBool.meta({ description: 'true: TLS from the start (port 465); false: STARTTLS when offered.' }),
  username: text(200).nullish(),
  password: z.string().min(1).max(500).nullish().meta({ description: 'Write-only: reads show password_set.' }),
  from_address: z.email().max(254),
  from_name: text(200).nullish(),
});

export const AUTH_TYPES = ['NONE', 'BASIC', 'BEARER', 'API_KEY'] as const;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

const httpAuthFields = z.strictObject({
    type: z.enum(AUTH_TYPES),
    username: text(200).nullish(),
    password: z.string().min(1).max(500).nullish().meta({ description: 'BASIC; write-only: reads show password_set.' }),
    token: z.string().min(1).max(2000).nullish().meta({ description: 'BEARER token or API_KEY value; write-only: reads show token_set.' }),
  header_name: z.string().regex(HEADER_NAME, 'must be an HTTP header name').nullish().meta({ description: 'API_KEY: the header that carries the token.' }),
});

/** Each auth type with the fields it needs. */
export const httpAuth = httpAuthFields.superRefine((a, ctx) => {
    const need = (field: 'username' | 'password' | 'token' | 'header_name') => {
      if (a[field] == null) ctx.addIssue({ code: 'custom', path: [field], message: `required for auth type ${a.type}` });
    };
    if (a.type === 'BASIC') (['username', 'password'] as const).forEach(need);
    if (a.type === 'BEARER') need('token');
    if (a.type === 'API_KEY') (['header_name', 'token'] as const).forEach(need);
  }, whenParsed);

const httpSettingsFields = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .meta({ description: 'https URL the message is sent to (http only to an address the operator allows: OUTBOUND_ALLOW_CIDRS).' }),
  method: z.enum(['POST', 'PUT']),
  auth: httpAuthFields,
  body_template: z
    .string()
    .min(1)
    .max(10_000)
    .refine((t) => [...t.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].every((m) => ['to', 'message', 'from'].includes(m[1])), 'placeholders are {{to}}, {{message}} and {{from}} only')
    .meta({ description: 'Request body with the placeholders {{to}}, {{message}}, {{from}}; each value is encoded for content_type (JSON string escaping, form URL-encoding, XML entities; text/plain: as it is).' }),
  content_type: z.enum(SMS_CONTENT_TYPES).nullish().meta({
    description: 'The body\'s Content-Type. Default: from the template: application/json when it starts with { or [, application/xml with <, ' +
      'application/x-www-form-urlencoded when it is name=value pairs joined by &, else text/plain.',
  }),
  from: text(100).nullish().meta({ description: 'Sender id or number given to the provider as {{from}}.' }),
});

export const httpSettings = httpSettingsFields.extend({ auth: httpAuth });

export type SmtpSettings = z.output<typeof smtpSettings>;
export type HttpSettings = z.output<typeof httpSettings>;
export type StoredSettings = SmtpSettings | HttpSettings | null;

const SCHEMA: Record<Provider, z.ZodType | null> = { SMTP: smtpSettings, HTTP: httpSettings, SYSTEM: null, INAPP: null };

/**
 * The settings' shape for a provider, without the rules a partial update may satisfy from the
 * stored record (secrets left out): issues as [path, message], for the request schema to report
 * before the record is looked up.
 */
const SHAPE: Record<Provider, z.ZodType | null> = { SMTP: smtpSettings, HTTP: httpSettingsFields, SYSTEM: null, INAPP: null };

export function settingsShapeIssues(provider: Provider, settings: unknown): Array<{ path: string[]; message: string }> {
  const schema = SHAPE[provider];
  if (!schema || settings == null) return [];
  const parsed = schema.safeParse(settings);
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issuePath(issue), message: issue.message }));
}

function issuePath(issue: z.core.$ZodIssue): string[] {
  // An unknown key is named itself (`settings.extra`), as the request pipeline does.
  const extra = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  return [...issue.path.map(String), ...extra];
}

/** Settings checked for the channel and provider; a provider without settings stores null. */
export function checkSettings(channel: Channel, provider: Provider, settings: unknown): StoredSettings {
  if (!CHANNEL_PROVIDERS[channel].includes(provider)) {
    throw invalid('provider', `provider: a ${channel} integration has provider ${CHANNEL_PROVIDERS[channel].join(' or ')}, not ${provider}`);
  }
  const schema = SCHEMA[provider];
  if (!schema) {
    if (settings != null && !(typeof settings === 'object' && Object.keys(settings).length === 0)) {
      throw invalid('settings', `settings: the ${provider} provider has no settings`);
    }
    return null;
  }
  if (settings == null) throw invalid('settings', `settings: required for the ${provider} provider`);
  const parsed = schema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['settings', ...issuePath(issue)].join('.');
    throw invalid(path, `${path}: ${issue.message}`);
  }
  return parsed.data as StoredSettings;
}

type Loose = Record<string, unknown>;

/**
 * A partial update's settings keep the stored secrets they leave out (a client never reads them
 * back, so it cannot send them again): for the same provider, and for HTTP the same auth type.
 * null given for a secret clears it. Never when the update changes a field that decides where or
 * how the secret travels (docs/security.md "Rights follow what a change reaches"): whoever may
 * edit an integration would otherwise point it at their own host, or send the password in clear
 * (`secure: false`) or in a header the provider logs, with the next send.
 */
export function keepSecrets(provider: Provider, stored: unknown, given: unknown): unknown {
  if (!isObject(stored) || !isObject(given)) return given;
  if (provider === 'SMTP') {
    if ('password' in given) return given;
    if (stored.password != null) refuseChanged('settings.password', stored, given, SMTP_CARRIERS);
    return { ...given, password: stored.password };
  }
  if (provider === 'HTTP' && isObject(given.auth) && isObject(stored.auth) && given.auth.type === stored.auth.type) {
    const auth: Loose = { ...given.auth };
    for (const secret of ['password', 'token']) {
      if (secret in auth) continue;
      if (stored.auth[secret] != null) {
        refuseChanged(`settings.auth.${secret}`, stored, given, ['url']);
        refuseChanged(`settings.auth.${secret}`, stored.auth, given.auth, HTTP_AUTH_CARRIERS, 'auth.');
      }
      auth[secret] = stored.auth[secret];
    }
    return { ...given, auth };
  }
  return given;
}

/**
 * What a stored secret travels with: its target (SMTP host and port, the HTTP url), the transport
 * (`secure`), and the rest of the auth it is presented with (username, the API_KEY header).
 */
const SMTP_CARRIERS = ['host', 'port', 'secure', 'username'];
const HTTP_AUTH_CARRIERS = ['username', 'header_name'];

/** 400 naming the secret when one of `fields` differs between stored and given (as the request may spell it). */
function refuseChanged(attribute: string, stored: Loose, given: Loose, fields: string[], prefix = ''): void {
  const changed = fields.find((f) => comparable(f, given[f]) !== comparable(f, stored[f]));
  if (changed) {
    throw invalid(attribute, `${attribute}: required when ${prefix}${changed} changes; the stored one is never sent to another target or in another way (or null to clear it)`);
  }
}

/** Host names in any case, `secure` as a boolean or its string, a left-out optional field as null. */
function comparable(field: string, value: unknown): string {
  if (value == null) return 'null';
  return field === 'host' ? String(value).toLowerCase() : String(value);
}

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Integrations (docs/communications.md "Integrations"). `settings` is checked per channel and
// provider by the domain on the merged result (src/domain/communications/integration-settings.ts),
// naming the field (`settings.url`); secrets are write-only.
import { z } from 'zod';
import { AUTH_TYPES, CHANNELS, PROVIDERS, settingsShapeIssues } from '../../../domain/communications/integration-settings';
import { contentList, nameCodeQuery } from '../../lists';
import { pagingQuery, whenParsed, zRefCode, zRefName } from '../../validation';
import { SMS_CONTENT_TYPES } from '../../../domain/communications/sms-body';


const settings = z.record(z.string(), z.unknown()).meta({
  description:
    'EMAIL/SMTP: {host, port, secure, username, password, from_address, from_name}. EMAIL/SYSTEM: none (the service\'s own SMTP_URL, or the ' +
    'embedded outbox). SMS/HTTP: {url (https; http only to an address the operator allows), method POST|PUT, auth {type NONE|BASIC|BEARER|API_KEY, username, password, token, ' +
    'header_name}, body_template (placeholders {{to}}, {{message}}, {{from}}, each encoded for content_type), content_type?, from}. INAPP/INAPP: none. password and token are write-only.',
});

/** The settings' shape when the body names the provider; the full rule runs in the domain on the merged record. */
function settingsShape(body: { provider?: (typeof PROVIDERS)[number]; settings?: Record<string, unknown> | null }, ctx: z.RefinementCtx): void {
  if (!body.provider) return;
  for (const issue of settingsShapeIssues(body.provider, body.settings).slice(0, 1)) {
    ctx.addIssue({ code: 'custom', path: ['settings', ...issue.path], message: issue.message });
  }
}

export const integrationCreateBody = z
  .strictObject({
    name: zRefName,
    code: zRefCode.nullish(),
    channel: z.enum(CHANNELS),
    provider: z.enum(PROVIDERS).meta({ description: 'EMAIL: SMTP or SYSTEM; SMS: HTTP; INAPP: INAPP.' }),
    settings: settings.nullish(),
  })
  .superRefine(settingsShape, whenParsed);

/** Partial. Settings given replace the settings, except secrets left out, which keep their stored value (same provider and auth type). */
export const integrationUpdateBody = z
  .strictObject({
    name: zRefName.optional(),
    code: zRefCode.nullish(),
    channel: z.enum(CHANNELS).optional(),
    provider: z.enum(PROVIDERS).optional(),
    settings: settings.nullish(),
  })
  .superRefine(settingsShape, whenParsed);

export const integrationListQuery = pagingQuery(['name', 'code', 'created_on']).extend({
  code: nameCodeQuery.code,
  name: nameCodeQuery.name,
  channel: z.enum(CHANNELS).optional(),
});

const smtpOut = z.object({
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  username: z.string().nullable(),
  password_set: z.boolean(),
  from_address: z.string(),
  from_name: z.string().nullable(),
});

const httpOut = z.object({
  url: z.string(),
  method: z.enum(['POST', 'PUT']),
  auth: z.object({
    type: z.enum(AUTH_TYPES),
    username: z.string().nullable(),
    header_name: z.string().nullable(),
    password_set: z.boolean(),
    token_set: z.boolean(),
  }),
  body_template: z.string(),
  content_type: z.enum(SMS_CONTENT_TYPES).meta({ description: 'The given content_type, or the one the template implies.' }),
  from: z.string().nullable(),
});

export const integrationItem = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  channel: z.enum(CHANNELS),
  provider: z.enum(PROVIDERS),
  settings: z.union([smtpOut, httpOut]).nullable().meta({ description: 'As written, without secrets: password_set / token_set tell whether one is stored.' }),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const integrationList = contentList(integrationItem);

import type { z } from 'zod';
import type { Integration } from '../../../db/client';
import type { HttpSettings, SmtpSettings } from '../../../domain/communications/integration-settings';
import type { IntegrationFilter } from '../../../domain/communications/integrations';
import { epoch } from '../../present';
import type { integrationItem, integrationListQuery } from './schemas';
import { smsContentType } from '../../../domain/communications/sms-body';

type Item = z.input<typeof integrationItem>;

/** Never the secrets: `password_set` / `token_set` only. */
export function presentIntegration(i: Integration): Item {
  return {
    id: i.id,
    code: i.code,
    name: i.name,
    channel: i.channel as Item['channel'],
    provider: i.provider as Item['provider'],
    settings: presentSettings(i.provider, i.settings),
    created_on: epoch(i.createdAt),
    updated_on: epoch(i.updatedAt),
  };
}

function presentSettings(provider: string, settings: unknown): Item['settings'] {
  if (settings == null) return null;
  if (provider === 'SMTP') {
    const s = settings as SmtpSettings;
    return {
      host: s.host, port: s.port, secure: s.secure, username: s.username ?? null, password_set: s.password != null,
      from_address: s.from_address, from_name: s.from_name ?? null,
    };
  }
  if (provider === 'HTTP') {
    const s = settings as HttpSettings;
    return {
      url: s.url,
      method: s.method,
      auth: {
        type: s.auth.type, username: s.auth.username ?? null, header_name: s.auth.header_name ?? null,
        password_set: s.auth.password != null, token_set: s.auth.token != null,
      },
      body_template: s.body_template,
      content_type: smsContentType(s.body_template, s.content_type),
      from: s.from ?? null,
    };
  }
  return null;
}

export function integrationFilter(q: z.output<typeof integrationListQuery>): IntegrationFilter {
  return { code: q.code, name: q.name, channel: q.channel };
}

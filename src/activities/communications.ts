// The communication-send activity (docs/communications.md "Communications"): re-reads the row,
// sends it once through its channel's provider, and marks it SENT, or FAILED after a
// non-retryable error or the last attempt.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { createTransport } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { scopedClient } from '../db/tenancy';
import type { HttpSettings, SmtpSettings } from '../domain/communications/integration-settings';
import { escapeHtml } from '../domain/communications/render';
import { instrumentHtml, trackingBase, trackingKey } from '../domain/communications/tracking';
import type { Mailer } from '../mail';
import { loadJwtSecret } from '../secrets';

export interface SendCommunicationInput {
  organisationId: string;
  communicationId: string;
  /** The workflow's retry policy's maximum attempts: the last one marks the row FAILED. */
  maximumAttempts?: number;
}

export type SendOutcome = 'SENT' | 'FAILED' | 'ALREADY_DONE';

/** A failure retrying cannot cure (a 4xx from the SMS provider, a permanent SMTP refusal). */
class Permanent extends Error {}

/** The stable Message-ID: a retried send is the same message. */
export const communicationMessageId = (id: string) => `<communication-${id}@backoffice>`;

export function communicationActivities(deps: { db: Db; mail: Mailer; config: Config }) {
  let key: Buffer | undefined;
  const tracking = () => (key ??= trackingKey(loadJwtSecret(deps.config)));
  return {
    async sendCommunication(input: SendCommunicationInput): Promise<SendOutcome> {
      const db = scopedClient(deps.db, input.organisationId);
      const row = await db.communication.findFirst({ where: { organisationId: input.organisationId, id: input.communicationId }, include: { integration: true } });
      if (!row || row.lifeCycleState !== 'PENDING') return 'ALREADY_DONE';
      const mark = async (state: 'SENT' | 'FAILED', data: { sender?: string | null; failureReason?: string }) => {
        await db.communication.updateMany({
          where: { organisationId: input.organisationId, id: row.id, lifeCycleState: 'PENDING' },
          data: { lifeCycleState: state, sentAt: state === 'SENT' ? new Date() : null, ...data },
        });
      };
      let sender: string | null;
      try {
        if (row.channel === 'EMAIL') {
          const base = trackingBase(deps.config);
          const html = instrumentHtml(row.richContent ?? `<div style="white-space:pre-wrap">${escapeHtml(row.content)}</div>`, base, tracking(), row.organisationId, row.id);
          const message = { to: row.recipient!, subject: row.subject ?? '', text: row.content, html, messageId: communicationMessageId(row.id) };
          if (!row.integration || row.integration.provider === 'SYSTEM') {
            await deps.mail.send(message);
            sender = deps.config.MAIL_FROM;
          } else {
            sender = await sendSmtp(row.integration.settings as unknown as SmtpSettings, message);
          }
        } else if (row.channel === 'SMS') {
          if (!row.integration) throw new Permanent('no SMS integration');
          sender = await sendHttp(row.integration.settings as unknown as HttpSettings, row.recipient!, row.content);
        } else {
          sender = null; // INAPP: the row is the message; nothing leaves the service.
        }
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        const attempt = Context.current().info.attempt;
        if (err instanceof Permanent || attempt >= (input.maximumAttempts ?? Infinity)) {
          await mark('FAILED', { failureReason: reason.slice(0, 1000) });
          return 'FAILED';
        }
        throw ApplicationFailure.retryable(reason, 'SEND_FAILED');
      }
      await mark('SENT', { sender });
      return 'SENT';
    },
  };
}

async function sendSmtp(s: SmtpSettings, m: { to: string; subject: string; text: string; html: string; messageId: string }): Promise<string> {
  const transport = createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    ...(s.username ? { auth: { user: s.username, pass: s.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const from = s.from_name ? { name: s.from_name, address: s.from_address } : s.from_address;
  try {
    await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: m.messageId });
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw new Permanent(`SMTP ${code}: ${(err as Error).message}`);
    throw err;
  } finally {
    transport.close();
  }
  return s.from_address;
}

async function sendHttp(s: HttpSettings, to: string, message: string): Promise<string | null> {
  const json = /^\s*[[{]/.test(s.body_template);
  const values: Record<string, string> = { to, message, from: s.from ?? '' };
  const body = s.body_template.replace(/\{\{\s*(to|message|from)\s*\}\}/g, (_w, name: string) => (json ? JSON.stringify(values[name]).slice(1, -1) : values[name]));
  const headers: Record<string, string> = { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' };
  if (s.auth.type === 'BASIC') headers.authorization = `Basic ${Buffer.from(`${s.auth.username}:${s.auth.password}`).toString('base64')}`;
  if (s.auth.type === 'BEARER') headers.authorization = `Bearer ${s.auth.token}`;
  if (s.auth.type === 'API_KEY') headers[s.auth.header_name!.toLowerCase()] = s.auth.token!;
  const res = await fetch(s.url, { method: s.method, headers, body, signal: AbortSignal.timeout(15_000), redirect: 'error' });
  await res.arrayBuffer().catch(() => undefined);
  if (res.ok) return s.from ?? null;
  const reason = `SMS provider answered ${res.status}`;
  if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) throw new Permanent(reason);
  throw new Error(reason);
}

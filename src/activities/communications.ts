// Sending communications (docs/communications.md "Communications", "Plans"): the single send
// of POST /communications, and the sends of a plan's tick. Each re-reads its rows, sends only
// those still PENDING, and marks each SENT, or FAILED after a non-retryable error or the last
// attempt, as soon as it is sent: a retried activity sends nothing twice.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Communication, Db, Integration } from '../db/client';
import { scopedClient } from '../db/tenancy';
import { settingsToSend } from '../domain/communications/integration-secrets';
import type { HttpSettings, SmtpSettings } from '../domain/communications/integration-settings';
import { escapeHtml } from '../domain/communications/render';
import { renderSmsBody, smsContentType } from '../domain/communications/sms-body';
import { contactSnapshotSql } from '../domain/events/contact-snapshot';
import { newId } from '../domain/ids';
import { instrumentHtml, trackingBase, trackingKey } from '../domain/communications/tracking';
import type { MailMessage, Mailer } from '../mail';
import { OutboundRefused, sendHttp, smtpTarget, SMTP_LIMITS, type OutboundConfig } from '../outbound';
import { loadJwtSecret } from '../secrets';
import { countCommunication } from '../telemetry/instruments';
import { currentTraceparent } from '../telemetry/trace';
import { smtpSpan } from '../mail/span';
import { checkIds, notOwned } from './ownership';
import type { SendCommunicationInput, SendOutcome } from '../workflows/contracts';

export interface TickInput {
  organisationId: string;
  planId: string;
  /** Epoch ms of the cron tick. */
  tick: number;
  maximumAttempts?: number;
}

type Row = Communication & { integration: Integration | null };

const MARK = `WITH m AS (
  UPDATE communications SET life_cycle_state = $3, sent_at = CASE WHEN $3 = 'SENT' THEN now() END,
    sender = COALESCE($4, sender), failure_reason = $5, updated_at = now()
  WHERE organisation_id = $1 AND id = $2 AND life_cycle_state = 'PENDING'
  RETURNING id, contact_id, channel, plan_id, template_id
)
INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, traceparent, payload)
SELECT $6::uuid, $1, 'COMMUNICATION_' || $3, 'communication', m.id, $7,
  jsonb_build_object('communication_id', m.id, 'contact_id', m.contact_id, 'channel', m.channel, 'plan_id', m.plan_id, 'template_id', m.template_id)
  || ${contactSnapshotSql('m.contact_id')}
FROM m`;

/**
 * A PENDING communication that nothing will send any more (its workflow was ended by an
 * operator) becomes FAILED with the reason, and records its COMMUNICATION_FAILED event.
 */
export async function failPendingCommunication(db: Db, organisationId: string, id: string, reason: string): Promise<void> {
  await db.$executeRawUnsafe(MARK, organisationId, id, 'FAILED', null, reason.slice(0, 1000), newId(), currentTraceparent());
}

/** A failure retrying cannot cure (a 4xx from the SMS provider, a permanent SMTP refusal). */
export class Permanent extends Error {}

/** The stable Message-ID: a retried send is the same message. */
export const communicationMessageId = (id: string) => `<communication-${id}@backoffice>`;

/** Rows of a tick sent at once; a page is read after the previous one is done. */
const TICK_PAGE = 200;
const TICK_CONCURRENCY = 20;

interface SendDeps {
  db: Db;
  mail: Mailer;
  config: Config;
}

export function communicationActivities(deps: SendDeps) {
  let key: Buffer | undefined;
  const tracking = () => (key ??= trackingKey(loadJwtSecret(deps.config)));

  /** One batch of sends: SMTP integrations keep one (pooled) transport each, pinned to the address judged once, until close(). */
  function sender() {
    const transports = new Map<string, Promise<Transporter>>();
    const smtp = (integration: Integration) => {
      let transport = transports.get(integration.id);
      if (!transport) {
        transport = smtpTransport(deps.config, settingsToSend<SmtpSettings>(integration));
        transport.catch(() => undefined); // each send awaits it and reports the failure
        transports.set(integration.id, transport);
      }
      return transport;
    };
    return {
      /** Sends the row; answers the sender address used. */
      async deliver(row: Row): Promise<string | null> {
        // Anonymisation clears the recipient of a communication still PENDING (docs/contacts.md).
        if (row.channel !== 'INAPP' && !row.recipient) throw new Permanent('no recipient: the contact was anonymized');
        if (row.channel === 'EMAIL') {
          const html = instrumentHtml(row.richContent ?? `<div style="white-space:pre-wrap">${escapeHtml(row.content)}</div>`, trackingBase(deps.config), tracking(), row.organisationId, row.id);
          const message = { to: row.recipient!, subject: row.subject ?? '', text: row.content, html, messageId: communicationMessageId(row.id) };
          if (!row.integration || row.integration.provider === 'SYSTEM') {
            await deps.mail.send(message);
            return deps.config.MAIL_FROM;
          }
          return await sendSmtp(await smtp(row.integration), row.integration.settings as unknown as SmtpSettings, message);
        }
        if (row.channel === 'SMS') {
          if (!row.integration) throw new Permanent('no SMS integration');
          return await sendSms(deps.config, settingsToSend<HttpSettings>(row.integration), row.recipient!, row.content);
        }
        return null; // INAPP: the row is the message; nothing leaves the service.
      },
      close: () => transports.forEach((t) => t.then((transport) => transport.close(), () => undefined)),
    };
  }

  /**
   * PENDING → SENT or FAILED, once: a row already moved is left as it is. The move records its
   * COMMUNICATION_SENT / COMMUNICATION_FAILED outbox event in the same statement, for automations.
   */
  async function mark(db: Db, row: Row, state: 'SENT' | 'FAILED', data: { sender?: string | null; failureReason?: string }) {
    const moved = await db.$executeRawUnsafe(MARK, row.organisationId, row.id, state, data.sender ?? null, data.failureReason ?? null, newId(), currentTraceparent());
    if (moved) countCommunication(row.organisationId, row.channel, state === 'SENT' ? 'sent' : 'failed');
  }

  /** Sends one row and marks it; 'RETRY' leaves it PENDING for the next attempt. */
  async function sendRow(db: Db, send: ReturnType<typeof sender>, row: Row, lastAttempt: boolean): Promise<SendOutcome | 'RETRY'> {
    let from: string | null;
    try {
      from = await send.deliver(row);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (!(err instanceof Permanent) && !lastAttempt) {
        countCommunication(row.organisationId, row.channel, 'retry');
        return 'RETRY';
      }
      await mark(db, row, 'FAILED', { failureReason: reason.slice(0, 1000) });
      return 'FAILED';
    }
    await mark(db, row, 'SENT', { sender: from });
    return 'SENT';
  }

  const lastAttempt = (max: number | undefined) => Context.current().info.attempt >= (max ?? Infinity);

  return {
    async sendCommunication(input: SendCommunicationInput): Promise<SendOutcome> {
      checkIds({ organisationId: input.organisationId, communicationId: input.communicationId });
      const db = scopedClient(deps.db, input.organisationId);
      const row = await db.communication.findFirst({ where: { organisationId: input.organisationId, id: input.communicationId }, include: { integration: true } });
      // Communications are never deleted: one not found is another organisation's (a forged start).
      if (!row) throw notOwned('communication', input.communicationId, input.organisationId);
      if (row.lifeCycleState !== 'PENDING') return 'ALREADY_DONE';
      const send = sender();
      try {
        const outcome = await sendRow(db, send, row, lastAttempt(input.maximumAttempts));
        if (outcome === 'RETRY') throw ApplicationFailure.retryable('the send failed; retrying', 'SEND_FAILED');
        return outcome;
      } finally {
        send.close();
      }
    },

    /** The PENDING communications of a plan's tick, a page at a time, TICK_CONCURRENCY at once. */
    async sendTickCommunications(input: TickInput): Promise<{ sent: number; failed: number }> {
      checkIds({ organisationId: input.organisationId, planId: input.planId });
      const db = scopedClient(deps.db, input.organisationId);
      const last = lastAttempt(input.maximumAttempts);
      const send = sender();
      const counts = { SENT: 0, FAILED: 0, RETRY: 0, ALREADY_DONE: 0 };
      let after: string | undefined;
      try {
        for (;;) {
          const rows = await db.communication.findMany({
            where: { organisationId: input.organisationId, planId: input.planId, planTick: new Date(input.tick), lifeCycleState: 'PENDING', ...(after ? { id: { gt: after } } : {}) },
            include: { integration: true },
            orderBy: { id: 'asc' },
            take: TICK_PAGE,
          });
          if (!rows.length) break;
          after = rows[rows.length - 1].id;
          for (let i = 0; i < rows.length; i += TICK_CONCURRENCY) {
            const outcomes = await Promise.all(rows.slice(i, i + TICK_CONCURRENCY).map((row) => sendRow(db, send, row, last)));
            for (const o of outcomes) counts[o]++;
          }
          Context.current().heartbeat(after);
        }
      } finally {
        send.close();
      }
      if (counts.RETRY) throw ApplicationFailure.retryable(`${counts.RETRY} communications of the tick are not sent yet`, 'SEND_FAILED');
      return { sent: counts.SENT, failed: counts.FAILED };
    },
  };
}

/**
 * A pooled transport to an SMTP integration (reports reuse it: src/activities/reports.ts),
 * connecting only to the address the outbound gateway judged; a refused host is Permanent.
 */
export async function smtpTransport(config: OutboundConfig, s: SmtpSettings): Promise<Transporter> {
  const target = await smtpTarget(config, s.host, s.port).catch((err: unknown) => {
    throw err instanceof OutboundRefused ? new Permanent(`refused: settings.host ${err.message}`) : err;
  });
  return createTransport({
    ...target,
    secure: s.secure,
    ...(s.username ? { auth: { user: s.username, pass: s.password ?? '' } } : {}),
    pool: true,
    // As many connections as a tick sends at once (TICK_CONCURRENCY): fewer made sends queue (bench: 1,319 → 2,171 mails/s standalone).
    maxConnections: TICK_CONCURRENCY,
    ...SMTP_LIMITS,
  });
}

/** Sends from the integration's address; a permanent refusal (5xx) is not retried. */
export async function sendSmtp(transport: Transporter, s: SmtpSettings, m: Pick<MailMessage, 'to' | 'subject' | 'text' | 'html' | 'attachments'> & { messageId: string }): Promise<string> {
  const from = s.from_name ? { name: s.from_name, address: s.from_address } : s.from_address;
  try {
    await smtpSpan(() => transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, attachments: m.attachments, messageId: m.messageId }));
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw new Permanent(`SMTP ${code}: ${(err as Error).message}`);
    throw err;
  }
  return s.from_address;
}

/** Through the outbound gateway: a refused address or a redirect is Permanent; the answer is read up to the gateway's cap and dropped. */
async function sendSms(config: OutboundConfig, s: HttpSettings, to: string, message: string): Promise<string | null> {
  const contentType = smsContentType(s.body_template, s.content_type);
  const body = renderSmsBody(s.body_template, contentType, { to, message, from: s.from ?? '' });
  const headers: Record<string, string> = { 'content-type': `${contentType}; charset=utf-8` };
  if (s.auth.type === 'BASIC') headers.authorization = `Basic ${Buffer.from(`${s.auth.username}:${s.auth.password}`).toString('base64')}`;
  if (s.auth.type === 'BEARER') headers.authorization = `Bearer ${s.auth.token}`;
  if (s.auth.type === 'API_KEY') headers[s.auth.header_name!.toLowerCase()] = s.auth.token!;
  let status: number;
  try {
    ({ status } = await sendHttp(config, { method: s.method, url: s.url, headers, body, timeoutMs: 15_000 }));
  } catch (err) {
    throw err instanceof OutboundRefused ? new Permanent(`refused: settings.url ${err.message}`) : err;
  }
  if (status >= 200 && status < 300) return s.from ?? null;
  const reason = `SMS provider answered ${status}`;
  if (status >= 300 && status < 400) throw new Permanent(`${reason} (redirects are not followed)`);
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) throw new Permanent(reason);
  throw new Error(reason);
}

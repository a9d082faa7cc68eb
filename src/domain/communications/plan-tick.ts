// A plan's tick (docs/communications.md "Plans"): one communication per contact of the plan's
// segments, in the preferred channel, written PENDING in pages. The unique key (plan, tick,
// contact) makes a repeated tick, or a contact in two segments, create nothing twice.
import type { Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { newId } from '../ids';
import type { Channel } from './integration-settings';
import type { PlanRecord } from './plans';
import { renderMessage, type LanguageContent } from './render';
import { quotaMessage, quotaState } from './quotas';
import { segmentContactIds } from './segments';

const PAGE = 1000;

interface Recipient {
  id: string;
  code: string | null;
  title: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  company_name: string | null;
  loyalty_identifier: string | null;
  referral_code: string | null;
  preferred_language_code: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * Contacts that can receive the channel: not anonymized, not opted out of it (a plan never
 * overrides preferences), with the primary e-mail and phone (else the oldest).
 */
const RECIPIENTS = `
SELECT c.id, c.code, c.title, c.first_name, c.middle_name, c.last_name, c.company_name, c.loyalty_identifier,
       c.referral_code, c.preferred_language_code,
       (SELECT e.email_address FROM contact_emails e WHERE e.organisation_id = $1 AND e.contact_id = c.id
         ORDER BY e.is_primary DESC, e.created_at, e.id LIMIT 1) AS email,
       (SELECT p.number FROM contact_phones p WHERE p.organisation_id = $1 AND p.contact_id = c.id
         ORDER BY p.is_primary DESC, p.created_at, p.id LIMIT 1) AS phone
  FROM contacts c
 WHERE c.organisation_id = $1 AND c.id = ANY($2::uuid[]) AND NOT c.is_anonymized
   AND ($3::text <> 'EMAIL' OR NOT c.email_opt_out) AND ($3::text <> 'SMS' OR NOT c.sms_opt_out)`;

const INSERT = `
INSERT INTO communications (id, organisation_id, name, contact_id, channel, integration_id, language, recipient, subject,
                            content, rich_content, plan_id, plan_tick, life_cycle_state, failure_reason, created_at, updated_at)
SELECT u.id, $1, $2, u.contact_id, $3, $4::uuid, u.language, u.recipient, u.subject, u.content, u.rich_content,
       $5::uuid, $6::timestamptz, CASE WHEN u.n > $15 THEN 'FAILED' ELSE 'PENDING' END, CASE WHEN u.n > $15 THEN $14 END, now(), now()
  FROM unnest($7::uuid[], $8::uuid[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
       WITH ORDINALITY AS u(id, contact_id, language, recipient, subject, content, rich_content, n)
ON CONFLICT (plan_id, plan_tick, contact_id) DO NOTHING
RETURNING id`;

/** The plan's integration of the channel, else the organisation's oldest of it, else none (EMAIL: the SYSTEM mailer). */
async function tickIntegration(tx: Tx, plan: PlanRecord): Promise<string | null> {
  const own = plan.integrations.find((i) => i.channel === plan.preferredChannel);
  if (own) return own.integrationId;
  const first = await tx.integration.findFirst({
    where: { organisationId: plan.organisationId, channel: plan.preferredChannel },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return first?.id ?? null;
}

/**
 * Writes the tick's communications; answers how many it wrote now (a repeat writes 0).
 * `onPage` is called after each page (the activity heartbeats there).
 */
export async function createTickCommunications(tx: Tx, sql: OrgSql, plan: PlanRecord, tick: number, onPage: () => void = () => undefined): Promise<number> {
  const channel = plan.preferredChannel as Channel;
  const integrationId = await tickIntegration(tx, plan);
  const contents = plan.contents as unknown as LanguageContent[];
  let created = 0;
  for (const { segmentId } of plan.segments) {
    let after: string | undefined;
    for (;;) {
      const ids = await segmentContactIds(sql, plan.organisationId, segmentId, after, PAGE);
      if (!ids.length) break;
      after = ids[ids.length - 1];
      const recipients = await sql.rows<Recipient>(RECIPIENTS, [ids, channel]);
      const rows = recipients.flatMap((c) => {
        const recipient = channel === 'EMAIL' ? c.email : channel === 'SMS' ? c.phone : null;
        if (!recipient && channel !== 'INAPP') return []; // nowhere to send it
        const name = c.company_name ?? ([c.first_name, c.last_name].filter(Boolean).join(' ') || null);
        const message = renderMessage(contents, { preferred: c.preferred_language_code, channel }, { ...c, name, email: c.email, phone: c.phone });
        return [{ id: newId(), contactId: c.id, recipient, ...message }];
      });
      if (rows.length) {
        // Past the hour's quota the rest of the tick is written FAILED with the reason: skipped, and
        // never sent later (a tick is sent once).
        const quota = await quotaState(tx, plan.organisationId, channel, false);
        const inserted = await sql.rows<{ id: string }>(INSERT, [
          plan.name, channel, integrationId, plan.id, new Date(tick),
          rows.map((r) => r.id), rows.map((r) => r.contactId), rows.map((r) => r.language), rows.map((r) => r.recipient),
          rows.map((r) => r.subject), rows.map((r) => r.content ?? ''), rows.map((r) => r.richContent),
          quotaMessage(channel, quota), quota.remaining,
        ]);
        created += inserted.length;
      }
      onPage();
      if (ids.length < PAGE) break;
    }
  }
  return created;
}

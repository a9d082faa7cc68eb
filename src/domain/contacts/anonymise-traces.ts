// What anonymising a contact clears beyond the contact itself (docs/contacts.md "Anonymisation"):
// the copies of its personal data that events, automation runs, webhooks and communications
// made. Run in the anonymisation's transaction, on its organisation-scoped client ($1 is the
// organisation, $2 the contact). Ids, states, times and amounts stay, so histories still add up.
import type { Tx } from '../../db/client';

export const ANONYMIZED = '[anonymized]';

/** Record attributes whose values come from the contact (docs/automations.md "What each adaptor does"). */
const PERSONAL_ATTRIBUTES = ['previous_value', 'custom_field_value', 'post_code', 'distance_km', 'notes'];

/** A snapshot (`contact` of an event or a webhook body) reduced to what identifies no one. */
const marker = (snapshot: string) => `jsonb_build_object('id', $2::uuid::text, 'contact_type', ${snapshot}->'contact_type',
  'category_id', ${snapshot}->'category_id', 'created_on', ${snapshot}->'created_on', 'is_anonymized', true)`;

/** Events about the contact: its own, and those whose payload names it (purchases, wallets, ...). */
const ABOUT_CONTACT = `(payload->>'contact_id' = $2::uuid::text OR payload->'contact'->>'id' = $2::uuid::text)`;

/**
 * The ids of what else automations run on that belongs to the contact: its records are found by
 * these too, because retention deletes dispatched events (docs/operations.md "Retention") and with
 * them the payload's contact_id. A record found only this way loses its entity_reference, which
 * was built from the deleted event and carries the contact's code and name.
 */
const CONTACTS_ENTITIES = `SELECT id FROM purchases WHERE organisation_id = $1 AND contact_id = $2::uuid
  UNION ALL SELECT id FROM vouchers WHERE organisation_id = $1 AND contact_id = $2::uuid
  UNION ALL SELECT id FROM communications WHERE organisation_id = $1 AND contact_id = $2::uuid
  UNION ALL SELECT w.id FROM wallets w JOIN accounts a ON a.id = w.account_id WHERE a.organisation_id = $1 AND a.contact_id = $2::uuid`;

/** What search_value still finds a record or request by once the contact's code and name are gone. */
const reference = (payload: string) => `NULLIF(concat_ws(' ', ${payload}->>'reference_number', ${payload}->>'number'), '')`;

/** Each statement with the parameters after $1 (organisation) and $2 (contact). */
const STATEMENTS: Array<[string, unknown[]]> = [
  // Records first: they find their events by the payload's contact_id, which stays.
  [`UPDATE adaptor_action_records r SET
     attributes = (SELECT COALESCE(jsonb_agg(CASE WHEN a->>'key' = ANY($3::text[]) THEN jsonb_set(a, '{value}', to_jsonb($4::text)) ELSE a END ORDER BY n), '[]'::jsonb)
                   FROM jsonb_array_elements(r.attributes) WITH ORDINALITY AS x(a, n)),
     entity_reference = (SELECT ${reference('e.payload')} FROM outbox_events e WHERE e.organisation_id = $1 AND e.id = r.event_id),
     updated_at = now()
   WHERE r.organisation_id = $1 AND (r.entity_id = $2::uuid
     OR r.event_id IN (SELECT id FROM outbox_events WHERE organisation_id = $1 AND ${ABOUT_CONTACT})
     OR r.entity_id IN (${CONTACTS_ENTITIES}))`, [PERSONAL_ATTRIBUTES, ANONYMIZED]],
  // Pending and dispatched alike: runs load their event's snapshot from here.
  [`UPDATE outbox_events SET payload = payload || jsonb_build_object('contact', ${marker(`payload->'contact'`)})
   WHERE organisation_id = $1 AND ${ABOUT_CONTACT}`, []],
  // The body a PENDING request sends next is the cleared one; the receivers' answers may echo the contact.
  [`WITH r AS (
     UPDATE webhook_requests SET
       body = CASE WHEN body->'data' ? 'contact' THEN jsonb_set(body, '{data,contact}', ${marker(`(body->'data'->'contact')`)}) ELSE body END,
       entity_reference = ${reference(`(body->'data')`)},
       response_body = CASE WHEN response_body IS NULL THEN NULL ELSE $3::text END,
       updated_at = now()
     WHERE organisation_id = $1 AND (entity_id = $2::uuid OR body->'data'->>'contact_id' = $2::uuid::text OR body->'data'->'contact'->>'id' = $2::uuid::text)
     RETURNING id)
   UPDATE webhook_attempts a SET response_body = $3::text FROM r WHERE a.organisation_id = $1 AND a.request_id = r.id AND a.response_body IS NOT NULL`, [ANONYMIZED]],
  // Every expression reads the row as it was (the old recipient is what a failure message may quote).
  [`UPDATE communications SET recipient = NULL,
     subject = CASE WHEN subject IS NULL THEN NULL ELSE $3::text END,
     content = $3::text,
     rich_content = CASE WHEN rich_content IS NULL THEN NULL ELSE $3::text END,
     failure_reason = CASE WHEN recipient IS NULL OR recipient = '' THEN failure_reason ELSE replace(failure_reason, recipient, $3::text) END,
     updated_at = now()
   WHERE organisation_id = $1 AND contact_id = $2::uuid`, [ANONYMIZED]],
];

export async function clearContactTraces(tx: Tx, organisationId: string, contactId: string): Promise<void> {
  for (const [statement, params] of STATEMENTS) await tx.$executeRawUnsafe(statement, organisationId, contactId, ...params);
}

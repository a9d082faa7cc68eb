// What anonymising a contact clears beyond the contact itself (docs/contacts.md "Anonymisation"):
// the copies of its personal data that events, automation runs, webhooks, communications,
// Idempotency-Key records, activities and audit rows made. Run in the anonymisation's
// transaction, on its organisation-scoped client ($1 is the organisation, $2 the contact). Ids, states, times and amounts stay, so histories still add up.
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
  // A replay's samples (docs/automations.md "Simulations") hold verdicts with the contact's values: those about the contact go.
  [`UPDATE automation_simulations SET
     samples = (SELECT COALESCE(jsonb_agg(x ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(samples) WITH ORDINALITY AS s(x, n)
                WHERE x->'event'->>'contact_id' IS DISTINCT FROM $2::uuid::text)
   WHERE organisation_id = $1 AND samples @> jsonb_build_array(jsonb_build_object('event', jsonb_build_object('contact_id', $2::uuid::text)))`, []],
];

/** What an activity about the contact is linked to: the contact, its accounts, its purchases. */
const ACTIVITY_LINKS = `SELECT $2::uuid AS id UNION ALL SELECT id FROM accounts WHERE organisation_id = $1 AND contact_id = $2::uuid
  UNION ALL SELECT id FROM purchases WHERE organisation_id = $1 AND contact_id = $2::uuid`;
const CONTACTS_ACTIVITY_ENTITIES = `entity_type IN ('CONTACT', 'ACCOUNT', 'PURCHASE') AND entity_id IN (${ACTIVITY_LINKS})`;

/** Audit values that may be personal: a credential's username, an activity's texts. */
const PERSONAL_AUDIT_KEYS = ['username', 'subject', 'description'];

/**
 * What an Idempotency-Key replay answers once the stored response named the contact: the key
 * keeps refusing a second effect, and answers no personal data (docs/security.md
 * "Anonymisation reaches idempotency records").
 */
export const ERASED_RESPONSE = {
  code: 'IDEMPOTENCY_RESPONSE_ERASED',
  message: 'The response of this request named a contact that has since been anonymised: it is no longer kept',
};

/** Copies outside automations: replayable responses, activities about the contact, the audit trail. */
const OTHER_COPIES: Array<[string, unknown[]]> = [
  // Found by the contact's id anywhere in the stored response (the record keeps no index of it).
  [`UPDATE idempotency_records SET status_code = 409, response_body = $3::jsonb
   WHERE organisation_id = $1 AND response_body IS NOT NULL AND strpos(response_body::text, $2::uuid::text) > 0`, [JSON.stringify(ERASED_RESPONSE)]],
  [`UPDATE activities SET subject = $3::text, description = CASE WHEN description IS NULL THEN NULL ELSE $3::text END, updated_at = now()
   WHERE organisation_id = $1 AND (${CONTACTS_ACTIVITY_ENTITIES})`, [ANONYMIZED]],
  // Rows about the contact, its credential (changes.contact_id) or an activity about it (changes.entity_id, or the activity's own rows).
  [`UPDATE audit_entries SET changes = changes || (SELECT jsonb_object_agg(k, to_jsonb($4::text)) FROM unnest($3::text[]) AS k WHERE changes ? k)
   WHERE organisation_id = $1 AND changes ?| $3::text[] AND (entity_id = $2::uuid OR changes->>'contact_id' = $2::uuid::text
     OR changes->>'entity_id' IN (SELECT id::text FROM (${ACTIVITY_LINKS}) AS l)
     OR (entity_type = 'activity' AND entity_id IN (SELECT id FROM activities WHERE organisation_id = $1 AND (${CONTACTS_ACTIVITY_ENTITIES}))))`, [PERSONAL_AUDIT_KEYS, ANONYMIZED]],
];

export async function clearContactTraces(tx: Tx, organisationId: string, contactId: string): Promise<void> {
  for (const [statement, params] of [...STATEMENTS, ...OTHER_COPIES]) await tx.$executeRawUnsafe(statement, organisationId, contactId, ...params);
}

// The contact as it was at an event (docs/automations.md "Events"): written into the outbox
// payload by the statement that records the event, so an automation's filters see the contact
// of that moment and not of when its run happens to read. The dispatcher strips it again once
// the event is handed to Temporal: the outbox keeps no personal data past dispatch.

/** Where a snapshot reads the contact and its lists: the tables, or a statement's own inserts (RETURNING *). */
export interface SnapshotSources {
  contacts: string;
  emails: string;
  phones: string;
  addresses: string;
}

const TABLES: SnapshotSources = { contacts: 'contacts', emails: 'contact_emails', phones: 'contact_phones', addresses: 'contact_addresses' };

/**
 * A jsonb expression: `{contact: {...}}` for the contact whose id is `contactId` (an SQL
 * expression), `{}` when there is none. `$1` is the organisation. `from`: a statement that
 * inserts the contact snapshots what it inserts (its CTEs), which its own reads cannot see.
 */
export function contactSnapshotSql(contactId: string, from: SnapshotSources = TABLES): string {
  return `COALESCE((
  SELECT jsonb_build_object('contact', jsonb_build_object(
    'id', c.id, 'code', c.code, 'contact_type', c.contact_type,
    'name', COALESCE(c.company_name, NULLIF(concat_ws(' ', c.first_name, c.last_name), '')),
    'first_name', c.first_name, 'last_name', c.last_name, 'company_name', c.company_name,
    'email_address', (SELECT e.email_address FROM ${from.emails} e WHERE e.contact_id = c.id ORDER BY e.is_primary DESC, e.created_at LIMIT 1),
    'phone_number', (SELECT p.number FROM ${from.phones} p WHERE p.contact_id = c.id ORDER BY p.is_primary DESC, p.created_at LIMIT 1),
    'language_code', c.preferred_language_code, 'category_id', c.category_id,
    'postal_code', a.postal_code, 'country_code', a.country_code, 'lat', a.lat, 'lon', a.lon,
    'created_on', floor(extract(epoch FROM c.created_at))::bigint, 'is_anonymized', c.is_anonymized))
  FROM ${from.contacts} c
  LEFT JOIN LATERAL (
    SELECT postal_code, country_code, lat, lon FROM ${from.addresses} ad
    WHERE ad.contact_id = c.id ORDER BY ad.is_primary DESC, ad.created_at LIMIT 1
  ) a ON true
  WHERE c.organisation_id = $1 AND c.id = ${contactId}), '{}'::jsonb)`;
}

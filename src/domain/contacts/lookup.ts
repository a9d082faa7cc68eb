import type { Contact, Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { contactStatementParams } from './read-statement';
import { conflict, notFound } from '../errors';
import { isId, normaliseId } from '../ids';
import type { Ref } from './types';

/**
 * The contact a path names by id or code, within the organisation. A GUID-shaped value may
 * still be a code (codes are free text), so it matches either; anything else is a code.
 * Another organisation's contact is "not found", like an unknown one.
 */
export async function findContact(tx: Tx, organisationId: string, idOrCode: string): Promise<Contact> {
  const rows = await tx.contact.findMany({ where: { organisationId, ...idOrCodeWhere(idOrCode) }, take: 2 });
  const contact = pickByIdOrCode(rows, idOrCode);
  if (!contact) throw notFound('Contact');
  return contact;
}

/** Should one contact's id equal another one's code, the id wins: ids are what the API hands out. */
export function pickByIdOrCode<T extends { id: string }>(rows: T[], idOrCode: string): T | undefined {
  return rows.find((c) => isId(idOrCode) && c.id === normaliseId(idOrCode)) ?? rows[0];
}

export function idOrCodeWhere(value: string) {
  return isId(value) ? { OR: [{ id: normaliseId(value) }, { code: value }] } : { code: value };
}

/** A contact named in a body by {id} or {code}; an id that is not a GUID matches nothing. */
export async function findContactByRef(tx: Tx, organisationId: string, ref: Ref): Promise<Contact | null> {
  if (ref.id !== undefined && !isId(ref.id)) return null;
  return tx.contact.findFirst({
    where: { organisationId, ...(ref.id !== undefined ? { id: normaliseId(ref.id) } : {}), ...(ref.code !== undefined ? { code: ref.code } : {}) },
  });
}

/** Anonymisation is irreversible: nothing may write personal data back afterwards. */
export function assertNotAnonymized(contact: Contact, attribute?: string): void {
  if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', 'The contact is anonymized and cannot be changed', attribute);
}

const CONTACT_ID = `SELECT id FROM contacts WHERE organisation_id = $1 AND (id = $2::uuid OR code = $3::text)
ORDER BY (id = $2::uuid) DESC NULLS LAST LIMIT 1`;

/** The id of the contact a path names by id or code (the rule above), for reads on ctx.sql. */
export async function findContactId(sql: OrgSql, idOrCode: string, attribute?: string): Promise<string> {
  const [row] = await sql.rows<{ id: string }>(CONTACT_ID, contactStatementParams(idOrCode));
  if (!row) throw notFound('Contact', attribute);
  return row.id;
}

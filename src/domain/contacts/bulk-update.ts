// PUT /contacts (spec 4.1, from R18.2.0): category and custom fields of many contacts in one
// call, all or nothing. The answer is a call id, stored with every audit row of the call and
// carried by each contact's UPDATE_CONTACT event, so a webhook request it causes can be related
// back to this API request (spec 6.4).
import type { Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { checkCustomFieldLists } from '../custom-fields/check';
import { conflict, invalid } from '../errors';
import { recordEvent } from '../events/outbox';
import { newId } from '../ids';
import { upsertCustomFields } from './children';
import { findContactByRef } from './lookup';
import { checkUniqueKeys } from './normalise';
import { resolveCategoryId } from './refs';
import type { BulkUpdateItem } from './types';

export async function bulkUpdateContacts(tx: Tx, actor: AuditActor, items: BulkUpdateItem[]): Promise<{ id: string }> {
  const callId = newId();
  const { organisationId } = actor;
  const callActor: AuditActor = { ...actor, callId };
  const seen = new Map<string, number>();
  const sql = txSql(tx, organisationId);
  await checkCustomFieldLists(sql, 'CONTACTS', items.map((item, i) => [item.custom_fields, `contacts.${i}.custom_fields`] as const));
  for (const [i, item] of items.entries()) {
    const at = `contacts.${i}`;
    const refAttribute = item.contact.code !== undefined ? `${at}.contact.code` : `${at}.contact.id`;
    const contact = await findContactByRef(tx, organisationId, item.contact);
    // A body naming an unknown contact is a bad body (400), like any unknown reference in it.
    if (!contact) throw invalid(refAttribute, `${refAttribute}: contact not found`);
    if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', `${refAttribute}: the contact is anonymized and cannot be changed`, refAttribute);
    if (seen.has(contact.id)) throw invalid(refAttribute, `${refAttribute}: the same contact is already item ${seen.get(contact.id)}`);
    seen.set(contact.id, i);

    checkUniqueKeys(item.custom_fields, `${at}.custom_fields`);
    const categoryId = await resolveCategoryId(sql, item.category, `${at}.category`);
    await tx.contact.update({
      where: { id: contact.id },
      data: { lastActivityAt: new Date(), ...(categoryId !== undefined ? { categoryId } : {}) },
    });
    if (item.custom_fields) await upsertCustomFields(tx, { organisationId, contactId: contact.id }, item.custom_fields);
    await audit(tx, callActor, {
      action: 'BULK_UPDATE',
      entityType: 'contact',
      entityId: contact.id,
      changes: { category_id: categoryId, custom_field_keys: item.custom_fields?.map((f) => f.key) },
    });
    // One event per contact, carrying the call id: the webhook requests it causes show it (spec 6.4).
    await recordEvent(tx, {
      organisationId, type: 'UPDATE_CONTACT', entityType: 'contact', entityId: contact.id,
      payload: { contact_id: contact.id, call_id: callId, fields: Object.keys(item).filter((k) => k !== 'contact') },
    });
  }
  return { id: callId };
}

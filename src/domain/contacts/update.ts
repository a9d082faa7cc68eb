// PUT /contacts/{id} (spec 2.1 "Update body"): a partial update. Only supplied fields change;
// list items with `id` change that item, items without one are added; custom fields are
// upserted by key; demographics and company_profile merge key by key.
import { Prisma, type Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { checkCustomFields } from '../custom-fields/check';
import { recordEvent } from '../events/outbox';
import { upsertCustomFields, writeAddresses, writeEmails, writePhones, writePrimaryEmail } from './children';
import { assertNotAnonymized, findContact } from './lookup';
import { categoryRef, checkOnePrimary, checkTypeRules, checkUniqueKeys, emailList, marketing } from './normalise';
import { resolveCategoryId, resolveCompanyProfile, withoutUndefined } from './refs';
import { rebuildSearchText } from './search-text';
import type { ConsentState, ContactType, ContactUpdateInput } from './types';

export async function updateContact(tx: Tx, actor: AuditActor, idOrCode: string, input: ContactUpdateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const contact = await findContact(tx, organisationId, idOrCode);
  assertNotAnonymized(contact);
  checkTypeRules(contact.contactType as ContactType, input, true);
  const flags = marketing(input);
  emailList(input); // refuses email_address and emails[] together
  checkOnePrimary(input.addresses, 'addresses');
  checkOnePrimary(input.phones, 'phones');
  checkOnePrimary(input.emails, 'emails');
  checkUniqueKeys(input.custom_fields, 'custom_fields');
  const sql = txSql(tx, organisationId);
  await checkCustomFields(sql, 'CONTACTS', input.custom_fields);

  const ref = categoryRef(input);
  const categoryId = await resolveCategoryId(sql, ref, input.category_id !== undefined ? 'category_id' : 'category');
  const profile = input.company_profile
    ? await resolveCompanyProfile(sql, input.company_profile, { profile: contact.companyProfile, industryId: contact.industryId })
    : undefined;

  const data: Prisma.ContactUncheckedUpdateInput = {
    ...withoutUndefined({
      code: input.code,
      companyName: input.company_name,
      title: input.title,
      firstName: input.first_name,
      middleName: input.middle_name,
      lastName: input.last_name,
      preferredLanguageCode: input.preferred_language_code,
      statutoryNumber: input.statutory_number,
      notes: input.notes,
      isTaxExempt: input.is_tax_exempt,
      referralCode: input.referral_code,
      loyaltyIdentifier: input.loyalty_identifier,
      smsOptOut: flags.smsOptOut,
      emailOptOut: flags.emailOptOut,
      affiliateMarketing: flags.affiliateMarketing,
      categoryId,
      industryId: profile?.industryId,
      industrySectorIds: profile?.industrySectorIds,
    }),
    lastActivityAt: new Date(),
  };
  if (input.demographics !== undefined) data.demographics = mergedJson(contact.demographics, input.demographics);
  if (profile) data.companyProfile = profile.profile;
  if (input.company_profile === null) Object.assign(data, { companyProfile: Prisma.DbNull, industryId: null, industrySectorIds: [] });
  // A code or statutory number taken by another contact: its unique index refuses it (409).
  await tx.contact.update({ where: { id: contact.id }, data });

  const owner = { organisationId, contactId: contact.id };
  if (input.addresses) await writeAddresses(tx, owner, input.addresses);
  if (input.phones) await writePhones(tx, owner, input.phones);
  if (input.emails) await writeEmails(tx, owner, input.emails);
  if (input.email_address !== undefined) await writePrimaryEmail(tx, owner, input.email_address);
  if (input.custom_fields) await upsertCustomFields(tx, owner, input.custom_fields);
  await rebuildSearchText(tx, contact.id);

  await audit(tx, actor, { action: 'UPDATE', entityType: 'contact', entityId: contact.id, changes: { fields: Object.keys(input) } });
  await recordEvent(tx, { organisationId, type: 'UPDATE_CONTACT', entityType: 'contact', entityId: contact.id, payload: { contact_id: contact.id, fields: Object.keys(input) } });
  return { id: contact.id };
}

/** PUT /contacts/{id}/consents. */
export async function setConsent(tx: Tx, actor: AuditActor, idOrCode: string, consentState: ConsentState): Promise<{ id: string }> {
  const contact = await findContact(tx, actor.organisationId, idOrCode);
  assertNotAnonymized(contact);
  await tx.contact.update({ where: { id: contact.id }, data: { consentState, lastActivityAt: new Date() } });
  await audit(tx, actor, { action: 'SET_CONSENT', entityType: 'contact', entityId: contact.id, changes: { consent_state: consentState } });
  return { id: contact.id };
}

/** Supplied keys replace stored ones; null clears the whole object. */
function mergedJson(current: Prisma.JsonValue | null, patch: object | null): Prisma.InputJsonObject | typeof Prisma.DbNull {
  if (patch === null) return Prisma.DbNull;
  const base = current !== null && typeof current === 'object' && !Array.isArray(current) ? current : {};
  return { ...(base as Prisma.InputJsonObject), ...withoutUndefined(patch) };
}

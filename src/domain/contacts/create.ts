// POST /contacts (spec 2.1, 4.1): the contact with its addresses, phones, e-mails, custom
// fields and accounts, an audit row and the REGISTER_CONTACT event, in one transaction.
import type { Prisma, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { checkCustomFields } from '../custom-fields/check';
import { recordEvent } from '../events/outbox';
import { newId } from '../ids';
import { createAccounts, defaultAccount } from './accounts';
import { addressData, emailData, phoneData } from './children';
import { categoryRef, checkOnePrimary, checkTypeRules, checkUniqueKeys, emailList, marketing, primaryFlags } from './normalise';
import { resolveCategoryId, resolveCompanyProfile } from './refs';
import { buildSearchText } from './search-text';
import type { ContactCreateInput } from './types';

export async function createContact(tx: Tx, actor: AuditActor, input: ContactCreateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  checkTypeRules(input.contact_type, input, false);
  const flags = marketing(input);
  const emails = emailList(input) ?? [];
  checkOnePrimary(input.addresses, 'addresses');
  checkOnePrimary(input.phones, 'phones');
  checkOnePrimary(input.emails, 'emails');
  checkUniqueKeys(input.custom_fields, 'custom_fields');
  await checkCustomFields(txSql(tx, organisationId), 'CONTACTS', input.custom_fields);

  const id = input.id ?? newId();
  // Items keep the order of the body: ids made in the same millisecond do not sort by creation.
  const now = Date.now();
  const at = (i: number) => new Date(now + i);
  const categoryId = await resolveCategoryId(tx, organisationId, categoryRef(input), input.category_id !== undefined ? 'category_id' : 'category');
  const profile = input.company_profile ? await resolveCompanyProfile(tx, organisationId, input.company_profile, { profile: null, industryId: null }) : undefined;
  const addresses = (input.addresses ?? []).map((a, i, all) => ({ id: newId(), organisationId, createdAt: at(i), isPrimary: primaryFlags(all)[i], ...addressData(a) }));
  const phones = (input.phones ?? []).map((p, i, all) => ({ id: newId(), organisationId, createdAt: at(i), isPrimary: primaryFlags(all)[i], ...phoneData(p), number: p.number as string }));
  const names = {
    code: input.code ?? null,
    companyName: input.company_name ?? null,
    firstName: input.first_name ?? null,
    middleName: input.middle_name ?? null,
    lastName: input.last_name ?? null,
    loyaltyIdentifier: input.loyalty_identifier ?? null,
  };

  // No SELECT before the insert: the unique indexes on id, code and statutory number decide,
  // also between concurrent creates (409 naming the field, src/domain/db-errors.ts).
  await tx.contact.create({
      data: {
        id,
        organisationId,
        contactType: input.contact_type,
        ...names,
        title: input.title ?? null,
        preferredLanguageCode: input.preferred_language_code ?? null,
        statutoryNumber: input.statutory_number ?? null,
        notes: input.notes ?? null,
        smsOptOut: flags.smsOptOut ?? false,
        emailOptOut: flags.emailOptOut ?? false,
        affiliateMarketing: flags.affiliateMarketing ?? false,
        isTaxExempt: input.is_tax_exempt ?? false,
        categoryId: categoryId ?? null,
        demographics: (input.demographics ?? undefined) as Prisma.InputJsonObject | undefined,
        companyProfile: profile?.profile,
        industryId: profile?.industryId ?? null,
        industrySectorIds: profile?.industrySectorIds ?? [],
        referralCode: input.referral_code ?? null,
        searchText: buildSearchText(names, phones),
      },
    });
  // One INSERT per list rather than one per item.
  const owner = { organisationId, contactId: id };
  if (addresses.length) await tx.contactAddress.createMany({ data: addresses.map((a) => ({ ...a, ...owner })) });
  if (phones.length) await tx.contactPhone.createMany({ data: phones.map((p) => ({ ...p, ...owner })) });
  if (emails.length) {
    await tx.contactEmail.createMany({
      data: emails.map((e, i, all) => ({ id: newId(), ...owner, createdAt: at(i), isPrimary: primaryFlags(all)[i], ...emailData(e), emailAddress: e.email_address as string })),
    });
  }
  if (input.custom_fields?.length) {
    await tx.contactCustomField.createMany({ data: input.custom_fields.map((f) => ({ id: newId(), ...owner, key: f.key, value: f.value })) });
  }

  const accounts = input.accounts?.length ? input.accounts : input.create_default_account ? [defaultAccount()] : [];
  const billingAddressId = addresses.find((a) => a.isPrimary)?.id ?? null;
  const accountIds = await createAccounts(tx, { organisationId, contactId: id, billingAddressId }, accounts);

  // Field names only: the audit trail must not keep personal data that anonymisation removes.
  await audit(tx, actor, { action: 'CREATE', entityType: 'contact', entityId: id, changes: { fields: Object.keys(input), account_ids: accountIds } });
  await recordEvent(tx, {
    organisationId,
    type: 'REGISTER_CONTACT',
    entityType: 'contact',
    entityId: id,
    payload: { contact_id: id, contact_type: input.contact_type, account_ids: accountIds },
  });
  return { id };
}

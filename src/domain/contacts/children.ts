// Addresses, phones, e-mails and custom fields of a contact: create with the contact, and the
// partial update of spec 2.1 (an item with `id` changes that item, one without is added).
import { Prisma, type Tx } from '../../db/client';
import { invalid } from '../errors';
import { isId, newId, normaliseId } from '../ids';
import type { CustomField } from '../custom-fields/values';
import type { AddressInput, EmailInput, PhoneInput } from './types';

type Owner = { organisationId: string; contactId: string };

export function addressData(a: AddressInput) {
  return defined({
    addressType: a.address_type,
    careOf: a.care_of,
    addressLine1: a.address_line_1,
    addressLine2: a.address_line_2,
    stateProvinceCounty: a.state_province_county,
    townCity: a.town_city,
    postalCode: a.postal_code,
    countryCode: a.country_code,
    lat: a.lat,
    lon: a.lon,
    googlePlaceId: a.googlePlaceId,
  });
}

export function phoneData(p: PhoneInput) {
  return defined({ phoneType: p.phone_type, countryCode: p.country_code, number: p.number });
}

export function emailData(e: EmailInput) {
  return defined({ emailType: e.email_type, emailAddress: e.email_address });
}

/** Updates or adds the listed addresses; returns nothing, the primary is settled afterwards. */
export async function writeAddresses(tx: Tx, owner: Owner, items: AddressInput[]): Promise<void> {
  let marked: string | undefined;
  const start = Date.now(); // items keep the order of the body
  for (const [i, a] of items.entries()) {
    const id = a.id === undefined ? newId() : await existingItem(tx, 'contact_addresses', owner, a.id, `addresses.${i}.id`);
    if (a.id === undefined) await tx.contactAddress.create({ data: { id, ...owner, createdAt: new Date(start + i), ...addressData(a) } });
    else await tx.contactAddress.update({ where: { id }, data: addressData(a) });
    if (a.is_primary) marked = id;
  }
  await settlePrimary(tx, 'contact_addresses', owner, marked);
}

export async function writePhones(tx: Tx, owner: Owner, items: PhoneInput[]): Promise<void> {
  let marked: string | undefined;
  const start = Date.now(); // items keep the order of the body
  for (const [i, p] of items.entries()) {
    if (p.id === undefined && !p.number) throw invalid(`phones.${i}.number`, `phones.${i}.number is required for a new phone`);
    const id = p.id === undefined ? newId() : await existingItem(tx, 'contact_phones', owner, p.id, `phones.${i}.id`);
    if (p.id === undefined) await tx.contactPhone.create({ data: { id, ...owner, createdAt: new Date(start + i), number: p.number as string, ...phoneData(p) } });
    else await tx.contactPhone.update({ where: { id }, data: phoneData(p) });
    if (p.is_primary) marked = id;
  }
  await settlePrimary(tx, 'contact_phones', owner, marked);
}

export async function writeEmails(tx: Tx, owner: Owner, items: EmailInput[]): Promise<void> {
  let marked: string | undefined;
  const start = Date.now(); // items keep the order of the body
  for (const [i, e] of items.entries()) {
    if (e.id === undefined && !e.email_address) throw invalid(`emails.${i}.email_address`, `emails.${i}.email_address is required for a new e-mail`);
    const id = e.id === undefined ? newId() : await existingItem(tx, 'contact_emails', owner, e.id, `emails.${i}.id`);
    if (e.id === undefined) await tx.contactEmail.create({ data: { id, ...owner, createdAt: new Date(start + i), emailAddress: e.email_address as string, ...emailData(e) } });
    else await tx.contactEmail.update({ where: { id }, data: emailData(e) });
    if (e.is_primary) marked = id;
  }
  await settlePrimary(tx, 'contact_emails', owner, marked);
}

/** The main shape's single `email_address` on update: changes the primary e-mail (null removes it). */
export async function writePrimaryEmail(tx: Tx, owner: Owner, address: string | null): Promise<void> {
  const primary = await tx.contactEmail.findFirst({ where: { contactId: owner.contactId, isPrimary: true } });
  if (address === null) {
    if (primary) await tx.contactEmail.delete({ where: { id: primary.id } });
    await settlePrimary(tx, 'contact_emails', owner, undefined);
  } else if (primary) {
    await tx.contactEmail.update({ where: { id: primary.id }, data: { emailAddress: address } });
  } else {
    await writeEmails(tx, owner, [{ email_address: address, email_type: 'PERSONAL', is_primary: true }]);
  }
}

/** Custom fields are upserted by key; keys not named stay as they are. A DATE is its epoch (checkCustomFields). */
export async function upsertCustomFields(tx: Tx, owner: Owner, fields: readonly CustomField[]): Promise<void> {
  for (const f of fields) {
    const value = f.value ?? Prisma.DbNull;
    await tx.contactCustomField.upsert({
      where: { contactId_key: { contactId: owner.contactId, key: f.key } },
      create: { id: newId(), ...owner, key: f.key, value },
      update: { value },
    });
  }
}

type ItemTable = 'contact_addresses' | 'contact_phones' | 'contact_emails';

/** An item id in the body must be an item of this contact; otherwise the body is wrong (400). */
async function existingItem(tx: Tx, table: ItemTable, owner: Owner, id: string, attribute: string): Promise<string> {
  const rows = isId(id)
    ? await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM ${Prisma.raw(`"${table}"`)} WHERE id = ${normaliseId(id)}::uuid AND contact_id = ${owner.contactId}::uuid AND organisation_id = ${owner.organisationId}::uuid`
    : [];
  if (rows.length === 0) throw invalid(attribute, `${attribute}: no such item on this contact`);
  return rows[0].id;
}

/**
 * Exactly one primary item when the contact has any: the one just marked, else the current
 * primary, else the oldest.
 */
export async function settlePrimary(tx: Tx, table: ItemTable, owner: Owner, marked: string | undefined): Promise<void> {
  const { contactId, organisationId } = owner;
  const t = Prisma.raw(`"${table}"`);
  let keep = marked;
  if (keep === undefined) {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM ${t} WHERE contact_id = ${contactId}::uuid AND organisation_id = ${organisationId}::uuid ORDER BY is_primary DESC, created_at, id LIMIT 1`;
    keep = rows[0]?.id;
  }
  if (keep !== undefined) await tx.$executeRaw`UPDATE ${t} SET is_primary = (id = ${keep}::uuid) WHERE contact_id = ${contactId}::uuid AND organisation_id = ${organisationId}::uuid`;
}

function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

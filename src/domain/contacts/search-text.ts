// The general `search_value` filter matches inside one lower-cased column instead of OR-ing
// five ILIKEs over three tables: one predicate, and one trigram index (added by the lead) can
// serve it. Every write to a contact or its phones calls rebuildSearchText in its transaction.
import type { Tx } from '../../db/client';

export interface SearchableContact {
  code: string | null;
  companyName: string | null;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  loyaltyIdentifier: string | null;
}

/**
 * Names in both orders ("ann smith", "smith ann", with and without the middle name), company
 * name, code, loyalty identifier, and each phone number as written and as bare digits.
 */
export function buildSearchText(contact: SearchableContact, phones: Array<{ number: string }>): string {
  const first = contact.firstName ?? '';
  const middle = contact.middleName ?? '';
  const last = contact.lastName ?? '';
  const parts = [
    join(first, last),
    join(first, middle, last),
    join(last, first),
    contact.companyName,
    contact.code,
    contact.loyaltyIdentifier,
    ...phones.flatMap((p) => [p.number, p.number.replace(/\D/g, '')]),
  ];
  const unique = [...new Set(parts.map((p) => (p ?? '').trim().toLowerCase()).filter((p) => p !== ''))];
  // A separator that no search term contains, so a term cannot match across two parts.
  return unique.join(' | ');
}

export async function rebuildSearchText(tx: Tx, contactId: string): Promise<void> {
  const contact = await tx.contact.findUniqueOrThrow({
    where: { id: contactId },
    select: { code: true, companyName: true, firstName: true, middleName: true, lastName: true, loyaltyIdentifier: true, phones: { select: { number: true } } },
  });
  await tx.contact.update({ where: { id: contactId }, data: { searchText: buildSearchText(contact, contact.phones) } });
}

/** The LIKE pattern of a search value: lower-cased, wildcards in the value taken literally. */
export function containsPattern(value: string): string {
  return `%${value.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function join(...parts: string[]): string {
  return parts.filter((p) => p.trim() !== '').join(' ');
}

// Shared by the account tests: contacts with addresses, accounts, and a look into the database
// for what HTTP cannot show (audit rows) or cannot do yet (a TERMINATED account: the saga).
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { api, type ApiResponse } from '../support/api';
import { createId } from '../money/helpers';

export { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';

let seq = 0;

export interface TestContact {
  id: string;
  code: string;
  /** [primary, other] */
  addressIds: string[];
}

/** A contact with two addresses (the first primary) and no account. */
export async function contactWithAddresses(key: string, db: Db): Promise<TestContact> {
  const code = `ACC-${process.pid}-${Date.now().toString(36)}-${++seq}`;
  const id = await createId(key, '/contacts', {
    contact_type: 'PERSON', code, first_name: 'Ann', last_name: 'Count',
    addresses: [
      { address_type: 'HOME', is_primary: true, address_line_1: '1 Main St', town_city: 'Nicosia', postal_code: '1000', country_code: 'CYP' },
      { address_type: 'BUSINESS', address_line_1: '2 Side St', town_city: 'Limassol', country_code: 'CYP' },
    ],
  });
  const addresses = await db.contactAddress.findMany({ where: { contactId: id }, orderBy: { createdAt: 'asc' } });
  return { id, code, addressIds: addresses.map((a) => a.id) };
}

export function addAccount(key: string, contact: string, body: object = {}): Promise<string> {
  return createId(key, `/contacts/${encodeURIComponent(contact)}/accounts`, body);
}

export async function listAccounts(key: string, contact: string, query = ''): Promise<ApiResponse> {
  return api('GET', `/contacts/${encodeURIComponent(contact)}/accounts${query ? `?${query}` : ''}`, { key });
}

/** Primary flag of each account of the contact, by id. */
export async function primaries(db: Db, contactId: string): Promise<string[]> {
  return (await db.account.findMany({ where: { contactId, isPrimary: true }, select: { id: true } })).map((a) => a.id);
}

/** What the termination saga leaves behind, without running it. */
export async function markTerminated(root: Db, organisationId: string, accountId: string): Promise<void> {
  await scopedClient(root, organisationId).account.update({ where: { id: accountId }, data: { lifeCycleState: 'TERMINATED', terminatedAt: new Date() } });
}

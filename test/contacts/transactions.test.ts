// What HTTP cannot show: the audit rows, the outbox events and the call id written with each
// contact change, all-or-nothing on failure, and DORMANT after a year. Runs the domain
// operations directly on the test service's database, in an organisation of its own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPrismaClient, type Db } from '../../src/db/client';
import { txSql } from '../../src/db/sql';
import { scopedClient } from '../../src/db/tenancy';
// Type only: importing the module would load PGlite, which jest cannot run in-process.
import type { DatabaseInfo } from '../../src/db/embedded';
import type { AuditActor } from '../../src/domain/audit';
import { bulkUpdateContacts } from '../../src/domain/contacts/bulk-update';
import { createContact } from '../../src/domain/contacts/create';
import { getContact, interactionStatus } from '../../src/domain/contacts/read';
import { searchContacts } from '../../src/domain/contacts/search';
import { contactSnapshotSql } from '../../src/domain/events/contact-snapshot';
import { newId } from '../../src/domain/ids';
import { testState } from '../support/state';

let root: Db;
/** The organisation's client, as the request pipeline hands it to domain code. */
let db: Db;
const organisationId = newId();
const actor: AuditActor = { organisationId, actorType: 'api_key', actorId: 'test-key', requestId: 'req-1' };
/** Counts only this file's organisation: other test files write to the same database. */
const mine = { where: { organisationId } };
const person = { contact_type: 'PERSON' as const, first_name: 'Ada', last_name: 'Lovelace' };

beforeAll(() => {
  const url = process.env.DATABASE_URL ?? (JSON.parse(readFileSync(path.join(testState().dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
  root = createPrismaClient(url, { poolSize: 1 });
  db = scopedClient(root, organisationId);
});

afterAll(async () => {
  await root?.$disconnect();
});

test('create writes the contact, an audit row and REGISTER_CONTACT in one transaction', async () => {
  const { id } = await db.$transaction((tx) => createContact(txSql(tx, organisationId), actor, { ...person, code: 'TX-1', create_default_account: true }));
  const events = await db.outboxEvent.findMany({ where: { organisationId, entityId: id } });
  expect(events).toEqual([expect.objectContaining({ type: 'REGISTER_CONTACT', entityType: 'contact', payload: expect.objectContaining({ contact_id: id, contact_type: 'PERSON' }) })]);
  // The event's snapshot sees the contact its transaction just wrote, until the dispatcher strips it.
  if (events[0].dispatchedAt === null) expect(events[0].payload).toMatchObject({ contact: { id, code: 'TX-1', first_name: 'Ada' } });
  const audits = await db.auditEntry.findMany({ where: { organisationId, entityId: id } });
  expect(audits).toEqual([expect.objectContaining({ action: 'CREATE', actorId: 'test-key', requestId: 'req-1' })]);
  // No personal values in the trail: field names only.
  expect(JSON.stringify(audits[0].changes)).not.toContain('Lovelace');
});

test("a new contact's event carries the snapshot the tables give of it (read from the insert's own rows)", async () => {
  const body = {
    ...person, code: 'SNAP-1', preferred_language_code: 'en',
    emails: [{ email_type: 'WORK', email_address: 'ada.work@example.com' }, { email_type: 'HOME', email_address: 'ada@example.com', is_primary: true }],
    phones: [{ phone_type: 'MOBILE', country_code: 'GBR', number: '+44 20 7946 0001' }, { phone_type: 'HOME', country_code: 'GBR', number: '+44 20 7946 0002' }],
    addresses: [
      { address_type: 'WORK', address_line_1: '1 Work Street', town_city: 'London', postal_code: 'EC1A 1BB', country_code: 'GBR' },
      { address_type: 'HOME', address_line_1: '12 St James Square', town_city: 'London', postal_code: 'SW1Y 4JH', country_code: 'GBR', lat: 51.5074, lon: -0.1346, is_primary: true },
    ],
  } as Parameters<typeof createContact>[2];
  // Compared inside the transaction (then rolled back), before any dispatcher can see the event.
  await expect(db.$transaction(async (tx) => {
    const sql = txSql(tx, organisationId);
    const { id } = await createContact(sql, actor, body);
    const [row] = await sql.rows<{ written: Record<string, unknown>; tables: Record<string, unknown> }>(
      `SELECT payload->'contact' AS written, ${contactSnapshotSql('$2::uuid')}->'contact' AS tables FROM outbox_events WHERE organisation_id = $1 AND entity_id = $2::uuid`, [id]);
    expect(row.written).toEqual(row.tables);
    expect(row.written).toMatchObject({ id, code: 'SNAP-1', name: 'Ada Lovelace', email_address: 'ada@example.com', phone_number: '+44 20 7946 0001', postal_code: 'SW1Y 4JH', lat: 51.5074, language_code: 'en', is_anonymized: false });
    throw new Error('rolled back');
  })).rejects.toThrow('rolled back');
});

test('a failed create leaves no contact, no audit row and no event', async () => {
  const before = await Promise.all([db.contact.count(mine), db.auditEntry.count(mine), db.outboxEvent.count(mine), db.account.count(mine)]);
  await expect(db.$transaction((tx) => createContact(txSql(tx, organisationId), actor, { ...person, accounts: [{}, { classification: { code: 'NOPE' } }] }))).rejects.toMatchObject({
    status: 400,
    attribute: 'accounts.1.classification',
  });
  expect(await Promise.all([db.contact.count(mine), db.auditEntry.count(mine), db.outboxEvent.count(mine), db.account.count(mine)])).toEqual(before);
});

test('bulk update: every change carries the call id, one UPDATE_CONTACT event per contact with it; a bad item writes nothing', async () => {
  const a = await db.$transaction((tx) => createContact(txSql(tx, organisationId), actor, { ...person, code: 'BULK-A' }));
  const b = await db.$transaction((tx) => createContact(txSql(tx, organisationId), actor, { ...person, code: 'BULK-B' }));
  const items = [
    { contact: { code: 'BULK-A' }, custom_fields: [{ key: 'k', value: '1' }] },
    { contact: { id: b.id }, custom_fields: [{ key: 'k', value: '2' }] },
  ];
  const { id: callId } = await db.$transaction((tx) => bulkUpdateContacts(tx, actor, items));
  const rows = await db.auditEntry.findMany({ where: { callId }, orderBy: { createdAt: 'asc' } });
  expect(rows.map((r) => [r.entityId, r.action])).toEqual([
    [a.id, 'BULK_UPDATE'],
    [b.id, 'BULK_UPDATE'],
  ]);
  // One statement writes both: the same created_at, so in the order of the items.
  const found = await db.outboxEvent.findMany({ where: { type: 'UPDATE_CONTACT', entityId: { in: [a.id, b.id] } } });
  const events = [a.id, b.id].flatMap((id) => found.filter((e) => e.entityId === id));
  expect(events.map((e) => e.payload)).toEqual([
    expect.objectContaining({ contact_id: a.id, call_id: callId, fields: ['custom_fields'] }),
    expect.objectContaining({ contact_id: b.id, call_id: callId, fields: ['custom_fields'] }),
  ]);
  // The contact's snapshot rides with the event until the shared service's dispatcher strips it.
  const [first] = events;
  if (first.dispatchedAt === null) expect(first.payload).toMatchObject({ contact: { id: a.id, code: 'BULK-A' } });
  else expect(first.payload).not.toHaveProperty('contact');

  const before = await Promise.all([db.auditEntry.count(mine), db.outboxEvent.count(mine), db.contactCustomField.count(mine)]);
  await expect(db.$transaction((tx) => bulkUpdateContacts(tx, actor, [items[0], { contact: { code: 'NOPE' } }]))).rejects.toMatchObject({
    status: 400,
    attribute: 'contacts.1.contact.code',
  });
  expect(await Promise.all([db.auditEntry.count(mine), db.outboxEvent.count(mine), db.contactCustomField.count(mine)])).toEqual(before);
});

test('a contact without change or activity for 12 months is DORMANT', async () => {
  const { id } = await db.$transaction((tx) => createContact(txSql(tx, organisationId), actor, { ...person, code: 'SLEEPY' }));
  expect(interactionStatus((await getContact(txSql(db, organisationId), organisationId, id)).contact.lastActivityAt)).toBe('RESTING');
  const longAgo = new Date();
  longAgo.setUTCMonth(longAgo.getUTCMonth() - 13);
  await db.contact.update({ where: { id }, data: { lastActivityAt: longAgo } });
  expect(interactionStatus((await getContact(txSql(db, organisationId), organisationId, id)).contact.lastActivityAt)).toBe('DORMANT');
  const found = await searchContacts(txSql(db, organisationId), organisationId, { code: 'sleepy', page: 1, size: 20, order: 'DESC' });
  expect(found.rows.map((r) => interactionStatus(r.contact.lastActivityAt))).toEqual(['DORMANT']);
});

// What operators query in the Temporal UI (docs/temporal-ui.md "Search attributes"): each
// workflow the API starts is found by its organisation and the record it is about.
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { createContact, eventually } from '../communications/helpers';
import { createId, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, credit, journal, newWallet } from '../wallets/setup';
import { connectTemporal } from '../support/temporal';

let tenant: Tenant;
let db: Db;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  tenant = await createTenant('Operators');
  db = openDatabase();
  connection = await connectTemporal();
  client = new Client({ connection });
});

afterAll(async () => {
  await connection?.close();
  await db?.$disconnect();
});

/** The workflow types the query box finds for this record of the tenant. */
async function foundFor(entityType: string, entityId: string): Promise<string[]> {
  const query = `OrganisationId = "${tenant.organisationId}" AND EntityType = "${entityType}" AND EntityId = "${entityId}"`;
  return eventually(async () => {
    const types: string[] = [];
    for await (const w of client.workflow.list({ query })) types.push(w.type);
    return types.length ? types : undefined;
  }, 10_000, `a workflow with ${entityType} ${entityId}`);
}

test('an account termination is found by its account', async () => {
  const key = tenant.secretKey;
  const { accountId } = await contactWithAccount(key, db);
  const { accountId: target } = await contactWithAccount(key, db);
  const res = await api('POST', `/accounts/${accountId}/life_cycle_state`, { key, body: { life_cycle_state: 'TERMINATED', transfer_to_account_id: target } });
  expect(res.status).toBe(200);
  expect(await foundFor('ACCOUNTS', accountId)).toEqual(['accountTerminationWorkflow']);
});

test('an auto top-up is found by its wallet', async () => {
  const key = tenant.secretKey;
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId, { auto_topup: { threshold: 10, amount: 50, payment_method: 'CARD' } });
  await credit(key, walletId, 12);
  expect((await journal(key, { wallet_id: walletId, amount: 5, type: 'DEBIT' })).status).toBe(200);
  expect(await foundFor('WALLETS', walletId)).toEqual(['walletTopupWorkflow']);
});

test('a communication is found by its id, a communication plan by its id', async () => {
  const key = tenant.secretKey;
  const contactId = await createContact(key, { first_name: 'Ops', email_address: 'ops@operators.test' });
  const communicationId = await createId(key, '/communications', { name: 'Hello', contact_id: contactId, channel: 'EMAIL', subject: 'Hello', content: 'Hello.' });
  expect(await foundFor('COMMUNICATIONS', communicationId)).toEqual(['communicationSendWorkflow']);

  const segment = await createId(key, '/segments', { name: 'Operators', type: 'STATIC', contact_ids: [contactId] });
  const planId = await createId(key, '/communication_plans', {
    name: 'Weekly', start_date: Math.floor(Date.now() / 1000), preferred_channel: 'EMAIL', frequency: '0 9 * * 1', segments: [segment],
    contents: [{ language: 'eng', subject: 'Hello', plain_content: 'Hi' }], life_cycle_state: 'POSTED',
  });
  expect(await foundFor('COMMUNICATION_PLANS', planId)).toEqual(['communicationPlanWorkflow']);
  // Deleting the plan ends its workflow.
  expect((await api('DELETE', `/communication_plans/${planId}`, { key })).status).toBe(200);
});

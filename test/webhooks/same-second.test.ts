// created_on_from / created_on_to of the request log are inclusive at the second (docs/DEVELOPING.md
// "Times"): a request created at X.7 s shows created_on X and is found by a window ending at X.
import type { Db, Tx } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { createWebhookRequest } from '../../src/domain/webhooks/requests';
import { createId, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let tenant: Tenant;
let root: Db;

beforeAll(async () => {
  tenant = await createTenant('Webhooks same second');
  root = openDatabase();
});
afterAll(async () => root?.$disconnect());

test('created_on_to equal to the creation second includes the request', async () => {
  const webhookId = await createId(tenant.secretKey, '/webhooks', { name: 'Log', method: 'POST', url_endpoint: 'https://1.1.1.1/hooks' });
  // Written directly, so nothing is ever sent to the endpoint.
  const second = Math.floor(Date.now() / 1000) - 60;
  const tx = scopedClient(root, tenant.organisationId) as unknown as Tx;
  const { id } = await createWebhookRequest(tx, tenant.organisationId, {
    webhookId, type: 'REGISTER_CONTACT', data: {}, causeKey: `k:${newId()}`, createdOn: new Date(second * 1000 + 700),
  });
  expect((await api('GET', `/webhook_requests/${id}`, { key: tenant.secretKey })).body.created_on).toBe(second);

  const found = await api('GET', `/webhook_requests?webhook_id=${webhookId}&created_on_from=${second}&created_on_to=${second}`, { key: tenant.secretKey });
  expect(found.status).toBe(200);
  expect(found.body.content.map((r: { id: string }) => r.id)).toEqual([id]);
});

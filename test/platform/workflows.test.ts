import { Client, Connection } from '@temporalio/client';
import { api } from '../support/api';
import { createTenant } from '../support/tenants';
import { connectTemporal } from '../support/temporal';

/**
 * The running service hosts a Temporal worker against its Temporal frontend (the embedded
 * server unless TEMPORAL_ADDRESS is set): a workflow started by any SDK client runs on it.
 */
describe('workflows of the running service', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connectTemporal();
  });
  afterAll(async () => {
    await connection.close();
  });

  it('runs a workflow with an activity on the service\'s worker', async () => {
    const client = new Client({ connection });
    const workflowId = `ping-${Date.now()}`;
    const handle = await client.workflow.start('pingWorkflow', { taskQueue: 'backoffice', workflowId, args: ['from the test'] });
    expect(await handle.result()).toBe('pong: from the test');
    const described = await handle.describe();
    expect(described.status.name).toBe('COMPLETED');
  });

  it('reports Temporal reachable in the health check', async () => {
    const { secretKey } = await createTenant();
    const res = await api('GET', '/health', { key: secretKey });
    expect(res.body.checks.temporal).toEqual({ ok: true });
  });
});

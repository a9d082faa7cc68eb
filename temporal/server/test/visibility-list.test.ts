/** ListWorkflowExecutions / CountWorkflowExecutions with the visibility query language. */
import { randomUUID } from 'crypto';
import * as grpc from '@grpc/grpc-js';
import { temporal } from '@temporalio/proto';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

let env: Env;
const tag = `tag-${randomUUID()}`;
const ids: string[] = [];
let before: Date;

beforeAll(async () => {
  env = await setup();
  before = new Date(Date.now() - 1000);
  const searchAttributes = { CustomKeywordField: [tag] };
  for (const name of ['a', 'b']) {
    const id = wid(`list-${name}`);
    ids.push(id);
    await env.client.workflow.execute(wf.hello, { taskQueue: env.taskQueue, workflowId: id, args: [name], searchAttributes });
  }
  const running = wid('list-running');
  ids.push(running);
  await env.client.workflow.start(wf.waitForever, { taskQueue: env.taskQueue, workflowId: running, searchAttributes });
});
afterAll(async () => {
  await env?.client.workflow.getHandle(ids[2]).terminate().catch(() => undefined);
  await env?.close();
});

async function list(query: string): Promise<string[]> {
  const out: string[] = [];
  for await (const w of env.client.workflow.list({ query })) out.push(w.workflowId);
  return out.sort();
}

// Real servers index asynchronously: wait until the expected result shows up.
const expectList = (query: string, expected: string[]) => waitFor(async () => JSON.stringify(await list(query)) === JSON.stringify([...expected].sort()));

test('filter by custom keyword search attribute', async () => {
  await expectList(`CustomKeywordField = "${tag}"`, ids);
});

test('filter by workflow type and status (AND / OR)', async () => {
  await expectList(`CustomKeywordField = "${tag}" AND WorkflowType = "hello"`, ids.slice(0, 2));
  await expectList(`CustomKeywordField = "${tag}" AND ExecutionStatus = "Running"`, ids.slice(2));
  await expectList(`CustomKeywordField = "${tag}" AND (WorkflowId = "${ids[0]}" OR WorkflowId = "${ids[2]}")`, [ids[0], ids[2]]);
});

test('start time and close time ranges', async () => {
  await expectList(`CustomKeywordField = "${tag}" AND StartTime > "${before.toISOString()}"`, ids);
  await expectList(`CustomKeywordField = "${tag}" AND StartTime < "${before.toISOString()}"`, []);
  await expectList(`CustomKeywordField = "${tag}" AND CloseTime > "${before.toISOString()}"`, ids.slice(0, 2));
});

test('count', async () => {
  await waitFor(async () => (await env.client.workflow.count(`CustomKeywordField = "${tag}"`)).count === 3);
  await waitFor(async () => (await env.client.workflow.count(`CustomKeywordField = "${tag}" AND ExecutionStatus = "Completed"`)).count === 2);
});

test('order by start time', async () => {
  const query = `CustomKeywordField = "${tag}" ORDER BY StartTime ASC`;
  if (!env.embedded) return; // ordering needs Elasticsearch on a real cluster
  const out: string[] = [];
  for await (const w of env.client.workflow.list({ query })) out.push(w.workflowId);
  expect(out).toEqual(ids);
});

test('a bad query is INVALID_ARGUMENT', async () => {
  for (const query of ['NoSuchAttribute = "x"', 'WorkflowId = ']) {
    const err = await list(query).catch((e: Error & { cause?: { code?: number } }) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { cause?: { code?: number } }).cause?.code).toBe(grpc.status.INVALID_ARGUMENT);
  }
});

test('search attribute names and types', async () => {
  const res = await env.client.workflowService.getSearchAttributes({});
  const Indexed = temporal.api.enums.v1.IndexedValueType;
  expect(res.keys?.WorkflowId).toBe(Indexed.INDEXED_VALUE_TYPE_KEYWORD);
  const registered = await env.client.connection.operatorService.listSearchAttributes({ namespace: 'default' });
  expect(registered.customAttributes?.CustomKeywordField).toBe(Indexed.INDEXED_VALUE_TYPE_KEYWORD);
  expect(res.keys?.StartTime).toBe(Indexed.INDEXED_VALUE_TYPE_DATETIME);
});

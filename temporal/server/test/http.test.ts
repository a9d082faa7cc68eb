/**
 * The HTTP API (what the Temporal UI calls) against the gRPC answers for the same calls: a few
 * workflows (completed, failed, running with a timer, a pending activity, a parent with a child),
 * then each UI call over HTTP compared with the gRPC response written with the same JSON rules.
 */
import { request } from 'http';
import { temporal } from '@temporalio/proto';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';
import { protoRoot, responseType, OPERATOR_SERVICE, WORKFLOW_SERVICE } from '../grpc/service';
import { deriveRoutes } from '../http/routes';
import { fromJson, toJson, toMessage, JsonError, TypeLike, Json } from '../http/protojson';

const EventType = temporal.api.enums.v1.EventType;
type Obj = Record<string, any>; // parsed JSON answers

let env: Env;
let base: string;
const ids: Record<'completed' | 'failed' | 'timer' | 'activity' | 'parent' | 'signals', { workflowId: string; runId: string }> = {} as never;

beforeAll(async () => {
  env = await setup({ http: true });
  base = `http://${env.httpAddress}/api/v1`;
  const tq = env.taskQueue;
  const start = async (name: keyof typeof ids, fn: Parameters<typeof env.client.workflow.start>[0], args: unknown[], workflowId = wid(name)) => {
    const h = await env.client.workflow.start(fn, { taskQueue: tq, workflowId, args } as never);
    ids[name] = { workflowId, runId: h.firstExecutionRunId };
    return h;
  };
  await (await start('completed', wf.oneActivity, ['http'])).result();
  await expect((await start('failed', wf.failing, ['boom'])).result()).rejects.toThrow();
  // An id the UI must percent-encode in the path.
  await start('timer', wf.sleeper, [3_600_000], `timer/${wid('a b')}`);
  await start('activity', wf.activityTimeouts, ['unpolled']);
  await start('parent', wf.parentOfWaitingChild, []);
  await start('signals', wf.accumulator, []);
  // Settle: each running workflow got where it waits, with no workflow task left (the data holds still).
  for (const [name, marker] of [
    ['timer', EventType.EVENT_TYPE_TIMER_STARTED],
    ['activity', EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED],
    ['parent', EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED],
    ['signals', EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED],
  ] as const) {
    await waitFor(async () => {
      const { workflowId, runId } = ids[name];
      const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events!;
      const d = await env.client.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId, runId } });
      return events.some((e) => e.eventType === marker) && !d.pendingWorkflowTask;
    });
  }
});
afterAll(async () => {
  await env?.close();
});

async function http(path: string, init?: RequestInit): Promise<{ status: number; json: Obj }> {
  const res = await fetch(base + path, init);
  expect(res.headers.get('content-type')).toBe('application/json');
  return { status: res.status, json: (await res.json()) as Obj };
}

async function get(path: string): Promise<Obj> {
  const { status, json } = await http(path);
  expect({ path, status, json }).toMatchObject({ status: 200 });
  return json;
}

const post = (path: string, body: unknown) => http(path, { method: 'POST', body: JSON.stringify(body) });

/** The gRPC answer of a method, written as JSON by the same rules as the HTTP API. */
async function grpc(service: 'workflowService' | 'operatorService', method: string, req: object): Promise<Json> {
  const svc = protoRoot.lookupService(service === 'workflowService' ? WORKFLOW_SERVICE : OPERATOR_SERVICE);
  const m = svc.methods[method];
  const stub = (service === 'workflowService' ? env.client.workflowService : env.client.connection.operatorService) as unknown as Record<string, (r: object) => Promise<object>>;
  const res = await stub[method[0].toLowerCase() + method.slice(1)](req);
  return toJson(responseType(m) as unknown as TypeLike, res);
}

const enc = (s: string) => encodeURIComponent(s);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const payload = (v: unknown) => ({ metadata: { encoding: b64('json/plain') }, data: b64(JSON.stringify(v)) });
const decode = (p: Obj) => JSON.parse(Buffer.from(p.data, 'base64').toString());
const wfPath = (name: keyof typeof ids) => `/namespaces/default/workflows/${enc(ids[name].workflowId)}`;
const execution = (name: keyof typeof ids) => ({ workflowId: ids[name].workflowId, runId: ids[name].runId });

test('the route table is every google.api.http binding of WorkflowService and OperatorService', () => {
  let bindings = 0;
  const methods = new Set<string>();
  for (const name of [WORKFLOW_SERVICE, OPERATOR_SERVICE]) {
    for (const m of protoRoot.lookupService(name).methodsArray) {
      for (const opt of (m.parsedOptions ?? []) as Obj[]) {
        const rule = opt['(google.api.http)'];
        if (!rule) continue;
        methods.add(`${name}.${m.name}`);
        const extra = rule.additional_bindings;
        bindings += 1 + (Array.isArray(extra) ? extra.length : extra ? 1 : 0);
      }
    }
  }
  const routes = deriveRoutes();
  expect(routes).toHaveLength(bindings);
  expect(bindings).toBe(228);
  expect(new Set(routes.map((r) => `${r.service}.${r.method.name}`)).size).toBe(methods.size);
  expect(methods.size).toBe(106);
  const ui = routes.filter((r) => r.template.startsWith('/api/v1/')).map((r) => `${r.verb} ${r.template} ${r.method.name}`);
  expect(ui).toEqual(
    expect.arrayContaining([
      'GET /api/v1/namespaces/{namespace}/workflows ListWorkflowExecutions',
      'GET /api/v1/namespaces/{namespace}/workflow-count CountWorkflowExecutions',
      'GET /api/v1/namespaces/{namespace}/task-queues/{task_queue.name} DescribeTaskQueue',
      'POST /api/v1/namespaces/{namespace}/workflows/{execution.workflow_id}/query/{query.query_type} QueryWorkflow',
      'GET /api/v1/namespaces/{namespace}/search-attributes ListSearchAttributes',
    ]),
  );
});

test('protojson reads and writes the Go forms of well-known types, int64, enums and oneofs', () => {
  const type = (name: string) => protoRoot.lookupType(name) as unknown as TypeLike;
  const roundTrip = (name: string, json: Obj) => toJson(type(name), toMessage(type(name), fromJson(type(name), json)));
  expect(roundTrip('temporal.api.common.v1.RetryPolicy', { initialInterval: '1.5s', maximumInterval: '0.000001s', backoffCoefficient: 2, maximumAttempts: 0 })).toEqual({
    initialInterval: '1.500s',
    maximumInterval: '0.000001s',
    backoffCoefficient: 2,
  });
  const info = roundTrip('temporal.api.workflow.v1.WorkflowExecutionInfo', {
    startTime: '2024-03-01T10:00:00.5+01:00',
    closeTime: '1970-01-01T00:00:00.123456789Z',
    status: 'Running',
    historyLength: 9007199254740993,
    stateTransitionCount: '9007199254740993',
  });
  expect(info).toEqual({
    startTime: '2024-03-01T09:00:00.500Z',
    closeTime: '1970-01-01T00:00:00.123456789Z',
    status: 'WORKFLOW_EXECUTION_STATUS_RUNNING',
    historyLength: '9007199254740992', // a JSON number loses precision before it arrives
    stateTransitionCount: '9007199254740993',
  });
  expect(roundTrip('google.protobuf.Struct', { a: 0, b: null, c: [false, 'x', { d: 1.5 }] })).toEqual({ a: 0, b: null, c: [false, 'x', { d: 1.5 }] });
  expect(roundTrip('temporal.api.failure.v1.Failure', { message: 'm', canceledFailureInfo: {} })).toEqual({ message: 'm', canceledFailureInfo: {} });
  expect(() => fromJson(type('temporal.api.common.v1.RetryPolicy'), { initialInterval: '1.5' })).toThrow(JsonError);
  expect(() => fromJson(type('temporal.api.workflow.v1.WorkflowExecutionInfo'), { status: 'Sleeping' })).toThrow(/status: invalid enum value/);
});

test('cluster info, system info, namespaces and search attributes equal the gRPC answers', async () => {
  const cluster = await get('/cluster-info');
  expect(cluster).toEqual(await grpc('workflowService', 'GetClusterInfo', {}));
  expect(cluster).toMatchObject({ serverVersion: '1.24.0', visibilityStore: expect.any(String) });
  const system = await get('/system-info');
  expect(system).toEqual(await grpc('workflowService', 'GetSystemInfo', {}));
  expect(system.capabilities.countGroupByExecutionStatus).toBe(true);
  expect(await get('/namespaces')).toEqual(await grpc('workflowService', 'ListNamespaces', {}));
  const ns = await get('/namespaces/default');
  expect(ns).toEqual(await grpc('workflowService', 'DescribeNamespace', { namespace: 'default' }));
  expect(ns.namespaceInfo.state).toBe('NAMESPACE_STATE_REGISTERED');
  expect(ns.config.workflowExecutionRetentionTtl).toBe('86400s');
  const attrs = await get('/namespaces/default/search-attributes');
  expect(attrs).toEqual(await grpc('operatorService', 'ListSearchAttributes', { namespace: 'default' }));
  expect(attrs.systemAttributes).toMatchObject({ WorkflowType: 'INDEXED_VALUE_TYPE_KEYWORD', StartTime: 'INDEXED_VALUE_TYPE_DATETIME' });
  expect(attrs.customAttributes.CustomKeywordField).toBe('INDEXED_VALUE_TYPE_KEYWORD');
});

test('workflow list pages, a query filter, and counts grouped by status', async () => {
  const first = await get(`/namespaces/default/workflows?query=&pageSize=4`);
  expect(first).toEqual(await grpc('workflowService', 'ListWorkflowExecutions', { namespace: 'default', pageSize: 4 }));
  expect(first.executions).toHaveLength(4);
  // The UI sends the token back as next_page_token.
  const second = await get(`/namespaces/default/workflows?pageSize=4&next_page_token=${enc(first.nextPageToken)}`);
  expect(second).toEqual(
    await grpc('workflowService', 'ListWorkflowExecutions', { namespace: 'default', pageSize: 4, nextPageToken: Buffer.from(first.nextPageToken, 'base64') }),
  );
  const all = [...first.executions, ...second.executions];
  expect(all.map((e: Obj) => e.execution.workflowId)).toEqual(expect.arrayContaining(Object.values(ids).map((i) => i.workflowId)));

  const query = 'WorkflowType = "failing" AND ExecutionStatus = "Failed"';
  const failed = await get(`/namespaces/default/workflows?query=${enc(query)}`);
  expect(failed).toEqual(await grpc('workflowService', 'ListWorkflowExecutions', { namespace: 'default', query }));
  expect(failed.executions.map((e: Obj) => [e.execution.workflowId, e.status])).toEqual([[ids.failed.workflowId, 'WORKFLOW_EXECUTION_STATUS_FAILED']]);

  const grouped = await get(`/namespaces/default/workflow-count?query=${enc('GROUP BY ExecutionStatus')}`);
  expect(grouped).toEqual(await grpc('workflowService', 'CountWorkflowExecutions', { namespace: 'default', query: 'GROUP BY ExecutionStatus' }));
  const byStatus = Object.fromEntries(grouped.groups.map((g: Obj) => [decode(g.groupValues[0]), Number(g.count)]));
  // Running: timer, activity, parent, its child, signals; Completed: completed (+ its activity is not a run).
  expect(byStatus).toEqual({ Running: 5, Completed: 1, Failed: 1 });
  expect(grouped.count).toBe('7');
  const running = await get(`/namespaces/default/workflow-count?query=${enc('ExecutionStatus = "Running"')}`);
  expect(running).toEqual({ count: '5' });
  const bad = await http(`/namespaces/default/workflows?query=${enc('GROUP BY ExecutionStatus')}`);
  expect(bad).toMatchObject({ status: 400, json: { code: 3, message: expect.stringContaining('GROUP BY'), details: [] } });
});

test('describe shows pending activities and pending children, as over gRPC', async () => {
  for (const name of Object.keys(ids) as (keyof typeof ids)[]) {
    const json = await get(`${wfPath(name)}?execution.runId=${ids[name].runId}`);
    expect(json).toEqual(await grpc('workflowService', 'DescribeWorkflowExecution', { namespace: 'default', execution: execution(name) }));
    expect(json.workflowExecutionInfo.execution).toEqual(execution(name));
  }
  const act = await get(`${wfPath('activity')}?execution.runId=${ids.activity.runId}`);
  expect(act.pendingActivities).toEqual([
    expect.objectContaining({ activityType: { name: 'slow' }, state: 'PENDING_ACTIVITY_STATE_SCHEDULED', attempt: 1, scheduledTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/) }),
  ]);
  const parent = await get(wfPath('parent'));
  expect(parent.pendingChildren).toEqual([
    expect.objectContaining({ workflowId: `${ids.parent.workflowId}-child`, workflowTypeName: 'waitForever', initiatedId: expect.stringMatching(/^\d+$/) }),
  ]);
  expect(parent.executionConfig.defaultWorkflowTaskTimeout).toBe('10s');
});

test('root and parent executions in describe and list, and the queries the Relationships tab sends', async () => {
  const parent = execution('parent');
  const childId = `${parent.workflowId}-child`;
  const child = await get(`/namespaces/default/workflows/${enc(childId)}`);
  expect(child).toEqual(await grpc('workflowService', 'DescribeWorkflowExecution', { namespace: 'default', execution: { workflowId: childId } }));
  const ns = await get('/namespaces/default');
  expect(child.workflowExecutionInfo).toMatchObject({ rootExecution: parent, parentExecution: parent, parentNamespaceId: ns.namespaceInfo.id });
  const top = (await get(wfPath('parent'))).workflowExecutionInfo;
  expect([top.rootExecution, top.parentExecution]).toEqual([parent, undefined]);

  const query = `RootWorkflowId = "${parent.workflowId}" AND RootRunId = "${parent.runId}"`;
  const listed = await get(`/namespaces/default/workflows?query=${enc(query)}`);
  expect(listed).toEqual(await grpc('workflowService', 'ListWorkflowExecutions', { namespace: 'default', query }));
  const family = listed.executions.map((e: Obj) => [e.execution.workflowId, e.rootExecution, e.parentExecution]);
  expect(family.sort((a: string[], b: string[]) => (a[0] < b[0] ? -1 : 1))).toEqual([
    [parent.workflowId, parent, undefined],
    [childId, parent, parent],
  ]);
  const counted = await get(`/namespaces/default/workflow-count?query=${enc(`${query} GROUP BY ExecutionStatus`)}`);
  expect(counted.count).toBe('2');
  const children = await get(`/namespaces/default/workflows?query=${enc(`ParentWorkflowId = "${parent.workflowId}" AND ParentRunId = "${parent.runId}"`)}`);
  expect(children.executions.map((e: Obj) => e.execution.workflowId)).toEqual([childId]);

  const { systemAttributes } = await get('/namespaces/default/search-attributes');
  const keyword = 'INDEXED_VALUE_TYPE_KEYWORD';
  expect(systemAttributes).toMatchObject({ ParentWorkflowId: keyword, ParentRunId: keyword, RootWorkflowId: keyword, RootRunId: keyword });
});

test('task queue pollers for workflow and activity queues', async () => {
  for (const taskQueueType of [1, 2]) {
    const path = `/namespaces/default/task-queues/${enc(env.taskQueue)}?taskQueueType=${taskQueueType}`;
    // Workers re-poll all the time: retry until both answers are taken between two polls.
    await waitFor(async () => {
      const json = await get(path);
      const rpc = await grpc('workflowService', 'DescribeTaskQueue', { namespace: 'default', taskQueue: { name: env.taskQueue }, taskQueueType });
      return JSON.stringify(json) === JSON.stringify(rpc) && json;
    });
    const json = await get(path);
    expect(json.pollers.length).toBeGreaterThan(0);
    expect(json.pollers[0]).toMatchObject({ identity: expect.stringContaining('@'), lastAccessTime: expect.stringMatching(/Z$/), ratePerSecond: 100000 });
  }
  expect(await get('/namespaces/default/task-queues/nobody-here?taskQueueType=2')).toEqual({});
});

test('history, paged and reversed, carries input and result as standard payloads', async () => {
  const q = `execution.runId=${ids.completed.runId}`;
  const history = await get(`${wfPath('completed')}/history?${q}`);
  expect(history).toEqual(await grpc('workflowService', 'GetWorkflowExecutionHistory', { namespace: 'default', execution: execution('completed') }));
  const events: Obj[] = history.history.events;
  expect(events[0].eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED');
  expect(decode(events[0].workflowExecutionStartedEventAttributes.input.payloads[0])).toBe('http');
  expect(Buffer.from(events[0].workflowExecutionStartedEventAttributes.input.payloads[0].metadata.encoding, 'base64').toString()).toBe('json/plain');
  const last = events.at(-1)!;
  expect(last.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  expect(decode(last.workflowExecutionCompletedEventAttributes.result.payloads[0])).toBe('hi http');
  expect(events[0].eventId).toBe('1');
  expect(events[0].eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

  // Pages of 3, following the tokens, give the same events.
  const paged: Obj[] = [];
  let token = '';
  do {
    const page = await get(`${wfPath('completed')}/history?${q}&maximumPageSize=3&next_page_token=${enc(token)}`);
    paged.push(...page.history.events);
    token = page.nextPageToken ?? '';
  } while (token);
  expect(paged).toEqual(events);

  const reverse = await get(`${wfPath('completed')}/history-reverse?${q}`);
  expect(reverse).toEqual(await grpc('workflowService', 'GetWorkflowExecutionHistoryReverse', { namespace: 'default', execution: execution('completed') }));
  expect(reverse.history.events).toEqual([...events].reverse());

  const failed = await get(`${wfPath('failed')}/history`);
  expect(failed.history.events.at(-1).workflowExecutionFailedEventAttributes.failure).toMatchObject({ message: 'boom', applicationFailureInfo: { type: 'TestFailure', nonRetryable: true } });
  const timer = await get(`${wfPath('timer')}/history`);
  const started = timer.history.events.find((e: Obj) => e.eventType === 'EVENT_TYPE_TIMER_STARTED');
  expect(started.timerStartedEventAttributes.startToFireTimeout).toBe('3600s');
});

test('waitNewEvent long-polls until a signal sent over HTTP arrives', async () => {
  const path = `${wfPath('signals')}/history?execution.runId=${ids.signals.runId}&waitNewEvent=true`;
  const first = await get(path);
  expect(first.nextPageToken).toBeTruthy(); // running: the UI keeps polling
  const t0 = Date.now();
  const poll = get(`${path}&next_page_token=${enc(first.nextPageToken)}`);
  await new Promise((r) => setTimeout(r, 300));
  const signal = await post(`${wfPath('signals')}/signal/add`, { input: { payloads: [payload(5)] }, identity: 'ui' });
  expect(signal).toEqual({ status: 200, json: {} });
  const next = await poll;
  expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
  const signalled = next.history.events.find((e: Obj) => e.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED');
  expect(signalled.workflowExecutionSignaledEventAttributes).toMatchObject({ signalName: 'add', identity: 'ui' });
  expect(decode(signalled.workflowExecutionSignaledEventAttributes.input.payloads[0])).toBe(5);
});

test('queries, including the UI metadata query', async () => {
  await waitFor(async () => (await env.client.workflow.getHandle(ids.signals.workflowId).query(wf.totalQuery)) === 5);
  const body = { execution: execution('signals'), query: { queryType: 'total' } };
  const total = await post(`${wfPath('signals')}/query/total`, body);
  expect(total.status).toBe(200);
  expect(decode(total.json.queryResult.payloads[0])).toBe(5);
  expect(total.json).toEqual(await grpc('workflowService', 'QueryWorkflow', { namespace: 'default', ...body }));

  const meta = await post(`${wfPath('signals')}/query/__temporal_workflow_metadata`, { execution: execution('signals'), query: { queryType: '__temporal_workflow_metadata' } });
  expect(meta.status).toBe(200);
  const definition = decode(meta.json.queryResult.payloads[0]).definition;
  expect(definition.type).toBe('accumulator');
  expect(definition.queryDefinitions.map((d: Obj) => d.name)).toEqual(expect.arrayContaining(['total', 'failing']));
  expect(definition.signalDefinitions.map((d: Obj) => d.name)).toEqual(expect.arrayContaining(['add', 'finish']));
});

test('terminate, cancel and signal through HTTP; reset answers UNIMPLEMENTED', async () => {
  const term = await post(`${wfPath('timer')}/terminate`, { reason: 'from the UI', identity: 'operator@example.com' });
  expect(term).toEqual({ status: 200, json: {} });
  const described = (await grpc('workflowService', 'DescribeWorkflowExecution', { namespace: 'default', execution: { workflowId: ids.timer.workflowId } })) as Obj;
  expect(described.workflowExecutionInfo.status).toBe('WORKFLOW_EXECUTION_STATUS_TERMINATED');
  const last = (await get(`${wfPath('timer')}/history-reverse?maximumPageSize=1`)).history.events[0];
  expect(last.workflowExecutionTerminatedEventAttributes).toMatchObject({ reason: 'from the UI', identity: 'operator@example.com' });
  expect(await post(`${wfPath('timer')}/terminate`, {})).toMatchObject({ status: 404, json: { code: 5 } });

  const cancellable = await env.client.workflow.start(wf.cancellable, { taskQueue: env.taskQueue, workflowId: wid('cancel me') });
  expect(await post(`/namespaces/default/workflows/${enc(cancellable.workflowId)}/cancel`, { reason: 'no longer needed' })).toEqual({ status: 200, json: {} });
  await expect(cancellable.result()).rejects.toThrow();
  expect((await cancellable.describe()).status.name).toBe('CANCELLED');

  expect((await post(`${wfPath('signals')}/signal/finish`, {})).status).toBe(200);
  expect(await env.client.workflow.getHandle(ids.signals.workflowId).result()).toBe(5);

  expect(await post(`${wfPath('parent')}/reset`, { reason: 'x', workflowTaskFinishEventId: '3' })).toEqual({
    status: 501,
    json: { code: 12, message: 'ResetWorkflowExecution is not implemented by the embedded Temporal server', details: [] },
  });
});

test('errors are {code, message, details} with the gRPC status mapped to HTTP', async () => {
  expect(await http('/namespaces/default/workflows/no-such-workflow')).toEqual({
    status: 404,
    json: { code: 5, message: expect.stringContaining('no-such-workflow'), details: [] },
  });
  expect(await http('/namespaces/nope/workflows')).toMatchObject({ status: 404, json: { code: 5, message: 'Namespace nope is not found.' } });
  expect(await http('/no/such/route')).toEqual({ status: 404, json: { code: 5, message: 'Not Found', details: [] } });
  expect(await http('/namespaces/default/workflow-count', { method: 'DELETE' })).toEqual({ status: 501, json: { code: 12, message: 'Method Not Allowed', details: [] } });
  expect(await http('/namespaces/default/workflows?pageSize=many')).toMatchObject({ status: 400, json: { code: 3, message: expect.stringContaining('pageSize') } });
  expect(await http(`${wfPath('parent')}/signal/x`, { method: 'POST', body: '{not json' })).toMatchObject({ status: 400, json: { code: 3 } });
  expect(await post(`${wfPath('parent')}/signal/x`, { input: { payloads: [{ data: 'not base64!' }] } })).toMatchObject({ status: 400, json: { code: 3, message: expect.stringContaining('input.payloads[0].data') } });

  // A start that collides carries the detail the SDKs decode, as an Any with @type.
  const taken = await post(`/namespaces/default/workflows/${enc(ids.parent.workflowId)}`, {
    workflowType: { name: 'waitForever' },
    taskQueue: { name: env.taskQueue },
    workflowIdConflictPolicy: 'Fail', // Temporal's short enum form
  });
  expect(taken).toEqual({
    status: 409,
    json: {
      code: 6,
      message: expect.stringContaining('already running'),
      details: [{ '@type': 'type.googleapis.com/temporal.api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure', startRequestId: expect.any(String), runId: ids.parent.runId }],
    },
  });
});

test('settings, as the UI server answers them, and no CORS for any origin', async () => {
  const settings = await get('/settings');
  expect(settings).toMatchObject({
    Auth: { Enabled: false },
    DefaultNamespace: 'default',
    DisableWriteActions: false,
    WorkflowTerminateDisabled: false,
    WorkflowCancelDisabled: false,
    WorkflowSignalDisabled: false,
    WorkflowResetDisabled: true,
    BatchActionsDisabled: true,
    Version: '2.38.0',
  });

  // No cross-origin grants, not even to a loopback origin: the UI calls through its own server.
  const preflight = await fetch(`${base}/namespaces/default/workflows/x/terminate`, {
    method: 'OPTIONS',
    headers: { Origin: 'http://127.0.0.1:8233', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'caller-type,x-csrf-token' },
  });
  expect(preflight.status).toBe(403);
  expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  const loopbackPage = await fetch(`${base}/namespaces`, { headers: { Origin: 'http://localhost:5173' } });
  expect([loopbackPage.status, loopbackPage.headers.get('access-control-allow-origin')]).toEqual([403, null]);

  const foreign = await http(`${wfPath('parent')}/terminate`, { method: 'POST', body: '{}', headers: { Origin: 'https://example.com' } });
  expect(foreign).toEqual({ status: 403, json: { code: 7, message: 'Origin not allowed', details: [] } });
  expect((await get(wfPath('parent'))).workflowExecutionInfo.status).toBe('WORKFLOW_EXECUTION_STATUS_RUNNING');
  // A page on another name that resolves to loopback (DNS rebinding) is refused by Host.
  const [host, port] = env.httpAddress!.split(':');
  const rebound = await new Promise<number>((resolve, reject) =>
    request({ host, port, path: '/api/v1/namespaces', headers: { Host: 'attacker.example' } }, (res) => resolve(res.resume().statusCode!)).on('error', reject).end(),
  );
  expect(rebound).toBe(403);
});

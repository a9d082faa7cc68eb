import { compileVisibilityQuery, knownSearchAttributes, VisibilityQueryError, type VisibilityRecord } from '../visibility/query';

/** The attributes these records use, as a namespace would have registered them. */
const customSearchAttributes = {
  CustomKeywordField: 'Keyword',
  CustomTextField: 'Text',
  CustomIntField: 'Int',
  CustomDoubleField: 'Double',
  CustomBoolField: 'Bool',
  CustomDatetimeField: 'Datetime',
} as const;

function rec(over: Partial<VisibilityRecord> = {}): VisibilityRecord {
  return {
    workflowId: 'order-1',
    runId: 'run-1',
    workflowType: 'OrderWorkflow',
    status: 'Running',
    startTime: new Date('2024-03-01T10:00:00Z'),
    taskQueue: 'backoffice',
    searchAttributes: {},
    ...over,
  };
}

const done = rec({
  workflowId: 'order-2',
  runId: 'run-2',
  status: 'Completed',
  startTime: new Date('2024-03-02T10:00:00Z'),
  closeTime: new Date('2024-03-02T10:05:00Z'),
  searchAttributes: {
    CustomKeywordField: 'gold',
    CustomIntField: 42,
    CustomDoubleField: 1.5,
    CustomBoolField: true,
    CustomDatetimeField: '2024-01-01T00:00:00Z',
    CustomTextField: 'The quick brown Fox',
    BuildIds: ['v1', 'v2'],
  },
});
const failed = rec({
  workflowId: 'invoice-9',
  runId: 'run-3',
  workflowType: 'InvoiceWorkflow',
  status: 'Failed',
  startTime: new Date('2024-03-03T10:00:00Z'),
  closeTime: new Date('2024-03-03T11:00:00Z'),
  taskQueue: 'billing',
  searchAttributes: { CustomKeywordField: 'silver', CustomIntField: 7, CustomBoolField: false },
});
const running = rec();
const all = [running, done, failed];

/** Workflow ids of the records the query matches, in input order (or query order with ORDER BY). */
function ids(query: string, records = all): string[] {
  const q = compileVisibilityQuery(query, { customSearchAttributes });
  const hits = records.filter((r) => q.matches(r));
  if (q.compare) hits.sort(q.compare);
  return hits.map((r) => r.workflowId);
}

function errorOf(query: string): string {
  try {
    compileVisibilityQuery(query, { customSearchAttributes });
  } catch (err) {
    expect(err).toBeInstanceOf(VisibilityQueryError);
    return (err as Error).message;
  }
  throw new Error(`query was accepted: ${query}`);
}

describe('visibility list filter', () => {
  test('empty and blank queries match everything, with no ordering', () => {
    expect(ids('')).toEqual(['order-1', 'order-2', 'invoice-9']);
    expect(ids('   \n')).toHaveLength(3);
    expect(compileVisibilityQuery('').compare).toBeUndefined();
  });

  test('system keyword attributes', () => {
    expect(ids("WorkflowId = 'order-2'")).toEqual(['order-2']);
    expect(ids('WorkflowType = "InvoiceWorkflow"')).toEqual(['invoice-9']);
    expect(ids("RunId = 'run-1'")).toEqual(['order-1']);
    expect(ids("TaskQueue = 'billing'")).toEqual(['invoice-9']);
    expect(ids("WorkflowId != 'order-2'")).toEqual(['order-1', 'invoice-9']);
    expect(ids("WorkflowId <> 'order-2'")).toEqual(['order-1', 'invoice-9']);
  });

  test('parent and root executions are Keyword system attributes (unset without a parent)', () => {
    const top = { workflowId: 'order-1', runId: 'run-1' };
    const family = [rec({ root: top }), rec({ workflowId: 'order-1-child', runId: 'run-c', parent: top, root: top })];
    expect(ids('RootWorkflowId = "order-1" AND RootRunId = "run-1"', family)).toEqual(['order-1', 'order-1-child']);
    expect(ids('ParentWorkflowId = "order-1" AND ParentRunId = "run-1"', family)).toEqual(['order-1-child']);
    expect(ids('ParentWorkflowId IS NULL', family)).toEqual(['order-1']);
    expect(knownSearchAttributes().system).toMatchObject({ ParentWorkflowId: 'Keyword', ParentRunId: 'Keyword', RootWorkflowId: 'Keyword', RootRunId: 'Keyword' });
  });

  test('execution status, every status name, case-insensitive', () => {
    expect(ids("ExecutionStatus = 'Running'")).toEqual(['order-1']);
    expect(ids("ExecutionStatus = 'completed'")).toEqual(['order-2']);
    expect(ids("ExecutionStatus != 'Running'")).toEqual(['order-2', 'invoice-9']);
    for (const s of ['Canceled', 'Terminated', 'ContinuedAsNew', 'TimedOut']) {
      expect(ids(`ExecutionStatus = '${s}'`, [rec({ status: s })])).toEqual(['order-1']);
    }
    expect(ids("ExecutionStatus IN ('Failed', 'Completed')")).toEqual(['order-2', 'invoice-9']);
    expect(errorOf("ExecutionStatus = 'Done'")).toMatch(/Running, Completed, Failed/);
  });

  test('datetime comparisons with RFC3339 literals', () => {
    expect(ids("StartTime > '2024-03-01T10:00:00Z'")).toEqual(['order-2', 'invoice-9']);
    expect(ids("StartTime >= '2024-03-01T10:00:00Z'")).toHaveLength(3);
    expect(ids("StartTime < '2024-03-02T10:00:00Z'")).toEqual(['order-1']);
    expect(ids("StartTime <= '2024-03-02T10:00:00Z'")).toEqual(['order-1', 'order-2']);
    expect(ids("StartTime = '2024-03-02T12:00:00+02:00'")).toEqual(['order-2']);
    expect(ids("StartTime != '2024-03-02T10:00:00.000000000Z'")).toEqual(['order-1', 'invoice-9']);
    expect(ids("CloseTime BETWEEN '2024-03-02T00:00:00Z' AND '2024-03-02T23:59:59.999Z'")).toEqual(['order-2']);
    expect(ids("StartTime NOT BETWEEN '2024-03-02T00:00:00Z' AND '2024-03-02T23:59:59Z'")).toEqual(['order-1', 'invoice-9']);
    expect(ids("ExecutionTime > '2024-03-02T00:00:00Z'")).toEqual(['order-2', 'invoice-9']);
    expect(ids("CustomDatetimeField < '2024-06-01T00:00:00Z'")).toEqual(['order-2']);
  });

  test('invalid timestamps are rejected', () => {
    expect(errorOf("StartTime > 'yesterday'")).toMatch(/RFC3339/);
    expect(errorOf("StartTime > '2024-02-30T00:00:00Z'")).toMatch(/RFC3339/);
    expect(errorOf("StartTime > '2024-01-01'")).toMatch(/RFC3339/);
    expect(errorOf('StartTime > 1.5')).toMatch(/RFC3339/);
  });

  test('close time is null while running', () => {
    expect(ids('CloseTime IS NULL')).toEqual(['order-1']);
    expect(ids('CloseTime is not null')).toEqual(['order-2', 'invoice-9']);
    expect(ids("CloseTime > '2000-01-01T00:00:00Z'")).toEqual(['order-2', 'invoice-9']);
  });

  test('custom search attributes of each type', () => {
    expect(ids("CustomKeywordField = 'gold'")).toEqual(['order-2']);
    expect(ids('CustomKeywordField IS NULL')).toEqual(['order-1']);
    expect(ids('CustomIntField > 10')).toEqual(['order-2']);
    expect(ids('CustomIntField BETWEEN 1 AND 10')).toEqual(['invoice-9']);
    expect(ids('CustomIntField >= -5')).toEqual(['order-2', 'invoice-9']);
    expect(ids('CustomDoubleField = 1.5')).toEqual(['order-2']);
    expect(ids('CustomDoubleField < 2')).toEqual(['order-2']);
    expect(ids('CustomBoolField = true')).toEqual(['order-2']);
    expect(ids("CustomBoolField = 'false'")).toEqual(['invoice-9']);
    expect(ids("CustomTextField = 'quick fox'")).toEqual(['order-2']);
    expect(ids("CustomTextField = 'slow fox'")).toEqual([]);
    expect(ids("CustomTextField != 'quick'")).toEqual(['order-1', 'invoice-9']);
    expect(ids("BuildIds = 'v2'")).toEqual(['order-2']);
  });

  test('registered custom attributes are passed by the server', () => {
    const q = compileVisibilityQuery("Tier = 'vip'", { customSearchAttributes: { Tier: 'Keyword' } });
    expect(q.matches(rec({ searchAttributes: { Tier: 'vip' } }))).toBe(true);
    expect(q.matches(rec())).toBe(false);
  });

  test('lists the attributes it knows, system and custom', () => {
    const { system, custom } = knownSearchAttributes(customSearchAttributes);
    expect(system).toMatchObject({ WorkflowId: 'Keyword', StartTime: 'Datetime', ExecutionStatus: 'Keyword' });
    expect(custom).toEqual(customSearchAttributes);
    // Nothing is custom until registered: a development server of Temporal 1.32 has none.
    expect(knownSearchAttributes().custom).toEqual({});
  });

  test('unknown attributes are errors, names are case-sensitive', () => {
    expect(errorOf("Colour = 'red'")).toMatch(/unknown search attribute 'Colour'/);
    expect(errorOf("workflowid = 'x'")).toMatch(/unknown search attribute 'workflowid'/);
    expect(errorOf('ORDER BY Nope')).toMatch(/unknown search attribute 'Nope'/);
  });

  test('value types are checked', () => {
    expect(errorOf('CustomIntField = 1.5')).toMatch(/expected an integer/);
    expect(errorOf("CustomIntField = '3'")).toMatch(/expected an integer/);
    expect(errorOf('WorkflowId = 3')).toMatch(/quoted string/);
    expect(errorOf('CustomBoolField = 1')).toMatch(/true or false/);
    expect(errorOf('WorkflowId = abc')).toMatch(/quote string values/);
  });

  test('operators not valid for a type are errors', () => {
    expect(errorOf("CustomTextField STARTS_WITH 'qu'")).toMatch(/STARTS_WITH is not supported for Text/);
    expect(errorOf('CustomBoolField > false')).toMatch(/not supported for Bool/);
    expect(errorOf("CustomTextField IN ('a')")).toMatch(/IN is not supported for Text/);
    expect(errorOf("WorkflowId LIKE 'order%'")).toMatch(/LIKE is not supported/);
  });

  test('IN and NOT IN', () => {
    expect(ids("WorkflowId IN ('order-1', 'invoice-9')")).toEqual(['order-1', 'invoice-9']);
    expect(ids("WorkflowId NOT IN ('order-1', 'invoice-9')")).toEqual(['order-2']);
    expect(ids('CustomIntField IN (7, 8)')).toEqual(['invoice-9']);
    expect(errorOf('WorkflowId IN ()')).toMatch(/expected a value/);
  });

  test('STARTS_WITH and NOT STARTS_WITH', () => {
    expect(ids("WorkflowId STARTS_WITH 'order-'")).toEqual(['order-1', 'order-2']);
    expect(ids("WorkflowId NOT STARTS_WITH 'order-'")).toEqual(['invoice-9']);
    expect(ids("BuildIds STARTS_WITH 'v'")).toEqual(['order-2']);
  });

  test('AND binds tighter than OR; parentheses override', () => {
    const q = "WorkflowId = 'order-1' OR WorkflowId = 'order-2' AND ExecutionStatus = 'Failed'";
    expect(ids(q)).toEqual(['order-1']);
    const p = "(WorkflowId = 'order-1' OR WorkflowId = 'order-2') AND ExecutionStatus = 'Completed'";
    expect(ids(p)).toEqual(['order-2']);
    expect(ids("NOT (ExecutionStatus = 'Running') and TaskQueue = 'backoffice'")).toEqual(['order-2']);
    expect(ids("((((WorkflowType = 'OrderWorkflow'))))")).toEqual(['order-1', 'order-2']);
  });

  test('BETWEEN ... AND inside a conjunction', () => {
    const q = "CustomIntField BETWEEN 0 AND 100 AND WorkflowId STARTS_WITH 'inv'";
    expect(ids(q)).toEqual(['invoice-9']);
  });

  test('backtick-quoted names and escaped strings', () => {
    expect(ids("`WorkflowId` = 'order-1'")).toEqual(['order-1']);
    const quoted = rec({ workflowId: "it's \"here\"" });
    expect(ids("WorkflowId = 'it''s \"here\"'", [quoted])).toHaveLength(1);
    expect(ids("WorkflowId = 'it\\'s \"here\"'", [quoted])).toHaveLength(1);
    expect(ids('WorkflowId = "it\'s \\"here\\""', [quoted])).toHaveLength(1);
  });

  test('ORDER BY StartTime and CloseTime, ASC by default, unset last', () => {
    expect(ids('ORDER BY StartTime')).toEqual(['order-1', 'order-2', 'invoice-9']);
    expect(ids('order by StartTime DESC')).toEqual(['invoice-9', 'order-2', 'order-1']);
    expect(ids("TaskQueue = 'backoffice' ORDER BY StartTime ASC")).toEqual(['order-1', 'order-2']);
    expect(ids('ORDER BY CloseTime DESC')).toEqual(['invoice-9', 'order-2', 'order-1']);
    expect(ids('ORDER BY CloseTime ASC')).toEqual(['order-2', 'invoice-9', 'order-1']);
    expect(ids('ORDER BY WorkflowType DESC, StartTime DESC')).toEqual(['order-2', 'order-1', 'invoice-9']);
    expect(errorOf('ORDER BY CustomTextField')).toMatch(/cannot ORDER BY Text/);
  });

  test('ExecutionDuration accepts durations', () => {
    expect(ids("ExecutionDuration > '10m'")).toEqual(['invoice-9']);
    expect(ids("ExecutionDuration <= '00:05:00'")).toEqual(['order-2']);
    expect(ids(`ExecutionDuration = ${5 * 60 * 1e9}`)).toEqual(['order-2']);
    expect(errorOf("ExecutionDuration > 'long'")).toMatch(/duration/);
  });

  test('syntax errors carry a position and never escape as other errors', () => {
    const bad = [
      "WorkflowId = 'x",
      'WorkflowId =',
      "WorkflowId 'x'",
      "WorkflowId = 'x' AND",
      "(WorkflowId = 'x'",
      "WorkflowId = 'x')",
      "'x' = WorkflowId",
      'WorkflowId = NULL',
      'CloseTime IS',
      'WorkflowId = 1abc',
      "WorkflowId = 'a' ORDER StartTime",
      "WorkflowId = 'a' GROUP BY ExecutionStatus",
      "WorkflowId = 'a' LIMIT 5",
      'ORDER BY StartTime WHERE',
      "WorkflowId = 'a' ; DROP TABLE x",
      '`unterminated',
      'AND',
      'SELECT * FROM executions',
      'WorkflowId = - 5',
      'WorkflowId BETWEEN 1',
      '@',
    ];
    for (const q of bad) expect(errorOf(q).length).toBeGreaterThan(5);
    expect(errorOf("WorkflowId = 'x' AND")).toMatch(/position 20/);
  });

  test('GROUP BY ExecutionStatus only in count queries', () => {
    expect(compileVisibilityQuery('GROUP BY ExecutionStatus', { allowGroupBy: true }).groupBy).toBe('ExecutionStatus');
    const q = compileVisibilityQuery("WorkflowType = 'OrderWorkflow' GROUP BY ExecutionStatus", { allowGroupBy: true });
    expect([q.groupBy, q.matches(rec()), q.matches(failed)]).toEqual(['ExecutionStatus', true, false]);
    expect(() => compileVisibilityQuery('GROUP BY ExecutionStatus')).toThrow(/only supported in count queries/);
    expect(() => compileVisibilityQuery('GROUP BY WorkflowType', { allowGroupBy: true })).toThrow(/only supported for ExecutionStatus/);
    expect(() => compileVisibilityQuery('GROUP BY ExecutionStatus ORDER BY StartTime', { allowGroupBy: true })).toThrow(/ORDER BY/);
    expect(() => compileVisibilityQuery('ORDER BY StartTime GROUP BY ExecutionStatus', { allowGroupBy: true })).toThrow(/misplaced/);
  });

  test('hostile input fails cleanly', () => {
    expect(errorOf('('.repeat(5000) + "WorkflowId = 'x'" + ')'.repeat(5000))).toMatch(/nested/);
    const long = Array.from({ length: 20000 }, (_, i) => `WorkflowId = 'w${i}'`).join(' OR ');
    expect(compileVisibilityQuery(long).matches(rec({ workflowId: 'w19999' }))).toBe(true);
    expect(() => compileVisibilityQuery(undefined as unknown as string)).toThrow(VisibilityQueryError);
  });
});

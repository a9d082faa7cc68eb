// The one road from a commit to Temporal (docs/DEVELOPING.md "From a commit to a workflow"): a
// write that must start, signal or signal-with-start a workflow records that intent here, in its
// own transaction, so the intent exists exactly when the write does. The outbox dispatcher
// (./dispatcher.ts) performs it after the commit. Inputs carry ids (src/workflows/contracts.ts).
import type { OrgSql } from '../db/sql';
import { newId } from '../domain/ids';
import type { InputOf, SignalArgsOf, SignalName, WorkflowType } from './registry';
import type { SearchValues } from './search-attributes';
import { currentTraceparent } from '../telemetry/trace';

type Start = { [T in WorkflowType]: { kind: 'start'; workflow: T; workflowId: string; input: InputOf<T>; search?: SearchValues } }[WorkflowType];

type SignalWithStart = {
  [T in WorkflowType]: {
    [S in SignalName]: { kind: 'signalWithStart'; workflow: T; workflowId: string; input: InputOf<T>; signal: S; signalArgs: SignalArgsOf<S>; search?: SearchValues };
  }[SignalName];
}[WorkflowType];

type Signal = { [S in SignalName]: { kind: 'signal'; workflowId: string; signal: S; signalArgs: SignalArgsOf<S> } }[SignalName];

export type Intent = Start | SignalWithStart | Signal;

const INSERT = `INSERT INTO workflow_intents (id, organisation_id, kind, workflow_type, workflow_id, input, search_attributes, signal_name, signal_args, traceparent, claimed_until)
VALUES ($2::uuid, $1::uuid, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9::jsonb, $10, now() + make_interval(secs => $11::int))`;

/**
 * On the write's transaction (`ctx.sql` in a write route, txSql(tx, organisationId) elsewhere).
 * `holdSeconds`: the dispatcher leaves it alone that long (its writer performs it first, e.g. a
 * run's first webhook attempt, then settles or releases it: src/domain/automations/webhook-step.ts).
 */
export async function recordIntent(sql: OrgSql, intent: Intent, holdSeconds: number | null = null): Promise<void> {
  await sql.rows(INSERT, [...intentValues(intent), holdSeconds]);
}

/**
 * The intent as the columns id, kind, workflow_type, workflow_id, input, search_attributes,
 * signal_name, signal_args, traceparent (the writer's trace: the dispatcher continues it).
 */
export function intentValues(intent: Intent): unknown[] {
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  return [
    newId(),
    intent.kind,
    intent.kind === 'signal' ? null : intent.workflow,
    intent.workflowId,
    intent.kind === 'signal' ? null : json(intent.input),
    intent.kind === 'signal' ? null : json(intent.search),
    intent.kind === 'start' ? null : intent.signal,
    intent.kind === 'start' ? null : json(intent.signalArgs),
    currentTraceparent(),
  ];
}

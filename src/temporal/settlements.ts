// What an operator's terminate or cancel (or a workflow timeout) means for the business record of
// each workflow of the service (docs/temporal-ui.md "Terminate and cancel"). A terminated workflow
// runs no more code, so its record is settled from outside, by whoever finds the workflow closed:
// the reconciler's pass (src/temporal/reconciler.ts).
// Every settlement is conditional on the record still being open, so doing it twice is harmless.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import { defaultPayloadConverter, WorkflowIdReusePolicy, type Payload } from '@temporalio/common';
import { failPendingCommunication } from '../activities/communications';
import { removeReportFiles } from '../activities/reports';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { scopedClient } from '../db/tenancy';
import { rejectPendingApprovals } from '../domain/automations/records';
import { settleSimulation } from '../domain/automations/simulations';
import { draftAfterWorkflowEnded } from '../domain/communications/plans';
import { markFailed } from '../domain/reports/runs';
import { failPendingRequest } from '../domain/webhooks/requests';
import type { Logger } from '../log';
import { isWorkflowType, type WorkflowType } from './registry';
import { SEARCH, searchAttributes } from './search-attributes';
import { ensureRecurringSchedules } from './schedules';
import { ID_PREFIX, LEDGER_EXPIRY_ID } from '../workflows/contracts';

export interface SettleDeps {
  client: Client;
  db: Db;
  config: Config;
  log: Logger;
}

/** The closes a workflow's own code never makes, by the SDK's status names. */
const REASONS: Record<string, string> = {
  TERMINATED: 'terminated by an operator',
  CANCELLED: 'cancelled by an operator',
  TIMED_OUT: 'the workflow timed out',
};

/** A run as list and describe both answer it. */
type Run = Omit<WorkflowExecutionInfo, 'raw'>;

interface Closed {
  info: Run;
  /** The workflow id after the kind's prefix: the record's id. */
  key: string;
  organisationId: string;
  reason: string;
}

const system = (organisationId: string) => ({ organisationId, actorType: 'system' as const, actorId: 'workflow-reconciler' });

/** Starts the same workflow again with the input of the closed run: its steps are idempotent, so it finishes what was left. */
async function restart({ client, config, log }: SettleDeps, { info }: Closed): Promise<void> {
  const history = await client.workflow.getHandle(info.workflowId, info.runId).fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  const values = Object.fromEntries(Object.entries(SEARCH).map(([name, key]) => [name, info.typedSearchAttributes.get(key)]));
  if (!isWorkflowType(info.type)) return;
  try {
    await client.workflow.start(info.type, {
      workflowId: info.workflowId,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: payloads.map((p) => defaultPayloadConverter.fromPayload(p as Payload)) as [never],
      typedSearchAttributes: searchAttributes(values),
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err; // another replica restarted it
    return;
  }
  log.info({ workflowId: info.workflowId, status: info.status.name }, 'restarted a workflow closed from outside: it finishes its idempotent steps');
}

async function failPlanCommunications(db: Db, organisationId: string, planId: string, reason: string): Promise<void> {
  for (;;) {
    const rows = await db.communication.findMany({ where: { organisationId, planId, lifeCycleState: 'PENDING' }, select: { id: true }, take: 200 });
    if (!rows.length) return;
    for (const { id } of rows) await failPendingCommunication(db, organisationId, id, `the plan's workflow was ${reason} before this was sent`);
  }
}

type Settle = (deps: SettleDeps, closed: Closed) => Promise<unknown>;

/** By workflow type (every one a write may start, and the expiry schedule's): what its close does. */
const SETTLE: { [T in WorkflowType | 'ledgerExpiryWorkflow']: Settle } = {
  webhookDeliveryWorkflow: ({ db }, c) => failPendingRequest(scopedClient(db, c.organisationId), c.organisationId, c.key, c.reason),
  automationRunWorkflow: ({ db }, c) => {
    const [automationId, eventId] = c.key.split(':');
    return rejectPendingApprovals(scopedClient(db, c.organisationId), c.organisationId, { automationId, eventId }, `${c.info.status.name}: the run was ${c.reason}`);
  },
  reportRunWorkflow: async ({ db, config }, c) => {
    await markFailed(scopedClient(db, c.organisationId), c.key, c.reason);
    await removeReportFiles(config, c.key);
  },
  // A replay has no effect to finish: its row says how it ended.
  automationSimulationWorkflow: ({ db }, c) =>
    scopedClient(db, c.organisationId).$transaction((tx) => settleSimulation(tx, c.organisationId, c.key, c.info.status.name === 'CANCELLED' ? 'CANCELLED' : 'FAILED', `the replay's workflow was ${c.reason}`)),
  communicationSendWorkflow: ({ db }, c) => failPendingCommunication(scopedClient(db, c.organisationId), c.organisationId, c.key, c.reason),
  communicationPlanWorkflow: async ({ db }, c) => {
    const org = scopedClient(db, c.organisationId);
    await org.$transaction((tx) => draftAfterWorkflowEnded(tx, system(c.organisationId), c.key, c.info.closeTime ?? new Date(), `the plan's workflow was ${c.reason}`));
    await failPlanCommunications(org, c.organisationId, c.key, c.reason);
  },
  // Money: never left half-moved. Every step is an idempotent ledger step, so the workflow runs again to the end.
  accountTerminationWorkflow: restart,
  walletTopupWorkflow: restart,
  // Its recurrence is a schedule, which an ended run leaves as it is: ensure it, as at every start.
  ledgerExpiryWorkflow: ({ client, config, log }) => ensureRecurringSchedules(client, config.TEMPORAL_TASK_QUEUE, log),
};

export const SETTLED_WORKFLOW_TYPES = Object.keys(SETTLE);

/** The start of a workflow id of this type, before its record's key. */
const prefixOf = (type: string): string | undefined => (type === 'ledgerExpiryWorkflow' ? LEDGER_EXPIRY_ID : isWorkflowType(type) ? ID_PREFIX[type] : undefined);

/**
 * Settles the record of `info`, the latest run of its workflow id, when that run was closed from
 * outside (terminated, cancelled, timed out); answers whether it was.
 */
export async function settleClosedWorkflow(deps: SettleDeps, info: Run): Promise<boolean> {
  const reason = REASONS[info.status.name];
  const prefix = prefixOf(info.type);
  if (!reason || prefix === undefined || !info.workflowId.startsWith(prefix)) return false;
  const organisationId = info.typedSearchAttributes.get(SEARCH.organisationId) ?? '';
  if (!organisationId && info.type !== 'ledgerExpiryWorkflow') {
    deps.log.warn({ workflowId: info.workflowId }, 'a closed workflow without OrganisationId: its record is left as it is');
    return false;
  }
  await SETTLE[info.type as keyof typeof SETTLE](deps, { info, key: info.workflowId.slice(prefix.length), organisationId, reason });
  // Debug: a start-up pass settles every such close the namespace keeps again (a no-op).
  deps.log.debug({ workflowId: info.workflowId, runId: info.runId, status: info.status.name }, 'settled the record of a workflow closed from outside');
  return true;
}

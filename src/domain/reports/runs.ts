// Report runs (spec 4.9 `POST /reports/{id}`; docs/reports.md "Run", "Recipient", "State"):
// the row a request writes PENDING, and the moves the run workflow makes on it.
import type { ReportRun, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { recordIntent } from '../../temporal/intents';
import { reportRunWorkflowId } from '../../workflows/contracts';
import { audit, type AuditActor } from '../audit';
import { conflict, found } from '../errors';
import { newId } from '../ids';
import { pageOf, type ListArgs, type ListPage } from '../lists';
import type { ReportRunInput } from './types';

export type RunState = 'PENDING' | 'RUNNING' | 'SENT' | 'FAILED';

/**
 * Where the report goes: the e-mail address of the user who ran it, or for an API key, of the
 * user who created the key (`created_by` = `user:<id>`). Keys made by the admin command line or
 * at bootstrap have no such user.
 */
export async function reportRecipient(tx: Tx, actor: { type: 'api_key' | 'user'; id: string }): Promise<string> {
  let userId: string | undefined = actor.type === 'user' ? actor.id : undefined;
  if (actor.type === 'api_key') {
    const key = await tx.apiKey.findFirst({ where: { id: actor.id }, select: { createdBy: true } });
    userId = /^user:(.+)$/.exec(key?.createdBy ?? '')?.[1];
  }
  const user = userId ? await tx.user.findFirst({ where: { id: userId, disabledAt: null }, select: { email: true } }) : null;
  if (user?.email) return user.email;
  const who = actor.type === 'user' ? 'Your user has no e-mail address' : userId ? "The user who created this API key has no e-mail address" : 'This API key was not created by a user, so the report has nobody to go to';
  throw conflict(
    'REPORT_RECIPIENT_MISSING',
    `${who}: an admin sets one with PUT /users/{id} {"email": "..."} (or npm run admin -- create-user --email), ` +
      'or run the report as a user with an address (a user token, or an API key that user created).',
  );
}

/** The PENDING row, and its workflow's intent: started by the dispatcher once this commits, so it always finds its row. */
export async function createReportRun(tx: Tx, actor: AuditActor, reportId: string, input: ReportRunInput, recipient: string): Promise<ReportRun> {
  const { format, ...body } = input;
  const run = await tx.reportRun.create({
    data: { id: newId(), organisationId: actor.organisationId, report: reportId, format, body: body as object, requestedBy: `${actor.actorType}:${actor.actorId}`, recipient },
  });
  await audit(tx, actor, { action: 'REPORT_RUN_REQUESTED', entityType: 'report_run', entityId: run.id, changes: { report: reportId, format } });
  const { organisationId } = actor;
  await recordIntent(txSql(tx, organisationId), {
    kind: 'start', workflow: 'reportRunWorkflow', workflowId: reportRunWorkflowId(run.id),
    input: { organisationId, runId: run.id }, search: { entityType: 'REPORT_RUNS', entityId: run.id },
  });
  return run;
}

export async function getReportRun(tx: Tx, organisationId: string, reportId: string, runId: string): Promise<ReportRun> {
  return found(await tx.reportRun.findFirst({ where: { organisationId, report: reportId, id: runId } }), 'Report run');
}

export async function listReportRuns(tx: Tx, organisationId: string, reportId: string, args: ListArgs): Promise<ListPage<ReportRun>> {
  const where = { organisationId, report: reportId };
  return pageOf(tx.reportRun.findMany({ where, ...args }), tx.reportRun.count({ where }));
}

/** PENDING (or RUNNING again, after a crash) → RUNNING; answers the run, or null once it is settled. */
export async function markRunning(tx: Tx, runId: string): Promise<ReportRun | null> {
  const moved = await tx.reportRun.updateMany({ where: { id: runId, state: { in: ['PENDING', 'RUNNING'] } }, data: { state: 'RUNNING' } });
  return moved.count ? tx.reportRun.findFirst({ where: { id: runId } }) : null;
}

/** RUNNING → SENT; false when the run was settled meanwhile (an operator's terminate). */
export async function markSent(tx: Tx, runId: string, counts: { rowCount: number; byteCount: number }): Promise<boolean> {
  return 0 < (await tx.reportRun.updateMany({ where: { id: runId, state: { in: ['PENDING', 'RUNNING'] } }, data: { state: 'SENT', ...counts, error: null, completedAt: new Date() } })).count;
}

/** A run that can no longer succeed; a SENT run stays SENT. False when the run was already settled. */
export async function markFailed(tx: Tx, runId: string, error: string): Promise<boolean> {
  return 0 < (await tx.reportRun.updateMany({ where: { id: runId, state: { in: ['PENDING', 'RUNNING'] } }, data: { state: 'FAILED', error: error.slice(0, 1000), completedAt: new Date() } })).count;
}

/**
 * The Schedule API of WorkflowService: create, describe, list, count, update, patch (pause,
 * unpause, trigger, backfill), delete and matching times, over the embedded server's schedules
 * (schedules/). Requests are checked here as Temporal's frontend checks them; a bad spec answers
 * `Invalid schedule spec: ...`, which the SDK raises as a TypeError. In Temporal a schedule is a
 * scheduler workflow in the `TemporalScheduler` namespace division, and the UI counts schedules by
 * counting those: such a count is answered from the schedules, any other goes to `visibilityCount`.
 */
import { def, Handler } from './service';
import { api, enums, tsMs, ws } from '../proto';
import { decodeFields, type Engine } from '../engine/engine';
import { failedPrecondition, invalid } from './errors';
import type { Schedules } from '../schedules/scheduler';
import { SpecError } from '../schedules/calendar';
import { conflictToken, describe, listEntry, matchingTimes, visibilityOf } from '../schedules/views';
import { compileVisibilityQuery, VisibilityQueryError, type SearchAttributeType } from '../visibility/query';
import type { Sched } from '../schedules/state';
import type { ISearchAttributes } from '../proto';
import { noMapping, unregisteredSearchAttribute } from '../engine/search-attributes';

const MAX_ID_LENGTH = 1000;
const NOTES_LIMIT = 1000;
const PAGE = 1000;
const SCHEDULER_DIVISION = /TemporalNamespaceDivision\s*=\s*["']TemporalScheduler["']/;

export function scheduleHandlers(engine: Engine, schedules: Schedules, visibilityCount: Handler): Record<string, Handler> {
  const nsName = (n: string | null | undefined): string => engine.namespaces.get(n).name;

  /** The schedule as it will be kept: a start-workflow action Temporal accepts, the canonical spec. */
  const checked = (ns: string, schedule: api.schedule.v1.ISchedule | null | undefined, own: ISearchAttributes | null | undefined): api.schedule.v1.ISchedule => {
    const start = schedule?.action?.startWorkflow;
    if (!start) throw invalid('Only StartWorkflow action is supported for schedules');
    for (const sa of [own, start.searchAttributes]) {
      const name = unregisteredSearchAttribute(engine, ns, sa);
      if (name !== undefined) throw invalid(noMapping(ns, name));
    }
    if (!start.workflowId) throw invalid('WorkflowId is not set on request.');
    // Room for the `-<time>` every started workflow's id gets.
    if (`${start.workflowId}-2009-11-10T23:00:00Z`.length > MAX_ID_LENGTH) throw invalid('WorkflowId length exceeds limit.');
    if (!start.workflowType?.name) throw invalid('WorkflowType is not set on request.');
    if (!start.taskQueue?.name) throw invalid('TaskQueue is not set on request.');
    if (start.cronSchedule) throw invalid('Scheduled workflow must not contain CronSchedule');
    const reuse = start.workflowIdReusePolicy ?? 0;
    if (reuse !== 0 && reuse !== enums.WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE) {
      throw invalid('Scheduled workflow must not contain WorkflowIDReusePolicy');
    }
    try {
      return schedules.normalize(schedule!);
    } catch (e) {
      if (e instanceof SpecError) throw invalid(`Invalid schedule spec: ${e.message}`);
      throw e;
    }
  };

  /** Schedules matching a list query, newest first; custom attribute types from the schedules' own. */
  const select = (ns: string, query: string | null | undefined): Sched[] => {
    const custom: Record<string, SearchAttributeType> = { ScheduleId: 'Keyword' };
    const all = schedules.list(ns);
    for (const sc of all) {
      for (const [k, p] of Object.entries(decodeFields(sc.s.sa))) {
        const type = p.metadata?.type ? Buffer.from(p.metadata.type).toString('utf8') : undefined;
        if (type) custom[k] = type as SearchAttributeType;
      }
    }
    let q;
    try {
      q = compileVisibilityQuery(query ?? '', { customSearchAttributes: custom });
    } catch (e) {
      if (e instanceof VisibilityQueryError) throw invalid(`invalid query: ${e.message}`);
      throw e;
    }
    return all.filter((sc) => q.matches(visibilityOf(sc))).sort((a, b) => b.s.createTime - a.s.createTime || a.s.id.localeCompare(b.s.id));
  };

  return {
    CreateSchedule: def<ws.ICreateScheduleRequest>(async (r) => {
      const ns = nsName(r.namespace);
      if (!r.scheduleId) throw invalid('ScheduleId is not set on request.');
      if (r.scheduleId.length > MAX_ID_LENGTH) throw invalid('ScheduleId length exceeds limit.');
      if (!r.requestId) throw invalid('RequestId is not set on request.');
      const schedule = checked(ns, r.schedule, r.searchAttributes);
      await schedules.create(ns, r.scheduleId, schedule, { requestId: r.requestId, memo: r.memo, sa: r.searchAttributes, initialPatch: r.initialPatch });
      return { conflictToken: conflictToken(1) };
    }),

    DescribeSchedule: def<ws.IDescribeScheduleRequest>(async (r) => describe(engine, schedules.get(nsName(r.namespace), r.scheduleId))),

    UpdateSchedule: def<ws.IUpdateScheduleRequest>(async (r) => {
      const sc = schedules.get(nsName(r.namespace), r.scheduleId);
      const schedule = checked(sc.ns, r.schedule, r.searchAttributes);
      // An unset token updates unconditionally; a stale one is refused (Temporal's CHASM scheduler).
      if (r.conflictToken?.length && !Buffer.from(r.conflictToken).equals(conflictToken(sc.s.conflictToken))) {
        throw failedPrecondition('mismatched conflict token');
      }
      await schedules.update(sc, schedule, r.searchAttributes, r.memo);
      return {};
    }),

    PatchSchedule: def<ws.IPatchScheduleRequest>(async (r) => {
      if (!r.patch) throw invalid('Patch is not set on request.');
      if ((r.patch.pause ?? '').length > NOTES_LIMIT || (r.patch.unpause ?? '').length > NOTES_LIMIT) throw invalid('Schedule notes exceeds limit.');
      for (const b of r.patch.backfillRequest ?? []) {
        if (!b.startTime || !b.endTime) throw invalid('Backfill request must have a start and an end time.');
      }
      await schedules.patch(schedules.get(nsName(r.namespace), r.scheduleId), r.patch);
      return {};
    }),

    DeleteSchedule: def<ws.IDeleteScheduleRequest>(async (r) => {
      await schedules.delete(schedules.get(nsName(r.namespace), r.scheduleId));
      return {};
    }),

    ListSchedules: def<ws.IListSchedulesRequest>(async (r) => {
      const all = select(nsName(r.namespace), r.query);
      const from = r.nextPageToken?.length ? Number(Buffer.from(r.nextPageToken).toString('utf8')) : 0;
      if (!Number.isInteger(from) || from < 0) throw invalid('Invalid NextPageToken');
      const size = r.maximumPageSize && r.maximumPageSize > 0 ? Math.min(r.maximumPageSize, PAGE) : PAGE;
      return {
        schedules: all.slice(from, from + size).map((sc) => listEntry(engine, sc)),
        nextPageToken: from + size < all.length ? Buffer.from(String(from + size)) : undefined,
      };
    }),

    CountSchedules: def<ws.ICountSchedulesRequest>(async (r) => ({ count: select(nsName(r.namespace), r.query).length })),

    CountWorkflowExecutions: def<ws.ICountWorkflowExecutionsRequest>(async (r, ctx) =>
      SCHEDULER_DIVISION.test(r.query ?? '') ? { count: select(nsName(r.namespace), r.query).length } : visibilityCount(r, ctx),
    ),

    ListScheduleMatchingTimes: def<ws.IListScheduleMatchingTimesRequest>(async (r) => {
      const sc = schedules.get(nsName(r.namespace), r.scheduleId);
      const start = tsMs(r.startTime);
      const end = tsMs(r.endTime);
      if (start === undefined || end === undefined) throw invalid('missing or invalid query');
      return { startTime: matchingTimes(sc, start, end).map((t) => ({ seconds: Math.floor(t / 1000), nanos: 0 })) };
    }),
  };
}

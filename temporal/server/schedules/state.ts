/**
 * A schedule's state. `ScheduleState` is what the store keeps (plain JSON, written whole with every
 * change, like a run's state): the schedule itself as base64 protobuf so it round-trips byte for
 * byte, counters, the buffer of starts not yet taken and what its workflows did. `Sched` adds what
 * only lives in memory: the decoded schedule, its compiled spec and its armed wakeup.
 */
import { api, enums } from '../proto';
import type { TimerHandle } from '../tasks/timers';
import { CompiledSpec } from './calendar';

type Schedule = api.schedule.v1.ISchedule;

/** One action waiting to be taken (Temporal's BufferedStart). Times in ms. */
export interface BufferedStart {
  nominal: number;
  actual: number;
  /** ScheduleOverlapPolicy; 0 = the schedule's policy when the start is processed. */
  overlap: number;
  /** A trigger or backfill: taken even when paused or out of actions. */
  manual: boolean;
}

/** A backfill still to be buffered: matching times after `after`, up to `end` inclusive. */
export interface Backfill {
  after: number;
  end: number;
  overlap: number;
}

/** A started workflow, by its id and the first run of its chain (retries and continue-as-new keep it). */
export interface Started {
  workflowId: string;
  runId: string;
}

export interface ActionResult extends Started {
  scheduleTime: number;
  actualTime: number;
  /** WorkflowExecutionStatus as last seen. */
  status: number;
}

export interface ScheduleState {
  id: string;
  /** Base64 temporal.api.schedule.v1.Schedule: canonical spec, policies with their defaults. */
  schedule: string;
  memo: Record<string, string>;
  sa: Record<string, string>;
  /** The create request's id: a retried create is answered as the first one was. */
  requestId: string;
  conflictToken: number;
  createTime: number;
  updateTime?: number;
  /** Every scheduled time up to here has been buffered, missed or skipped. */
  lastProcessed: number;
  actionCount: number;
  missedCatchupWindow: number;
  overlapSkipped: number;
  bufferDropped: number;
  buffer: BufferedStart[];
  backfills: Backfill[];
  /** Workflows started without ALLOW_ALL that have not been seen closed yet. */
  running: Started[];
  recent: ActionResult[];
  /** Base64 Payloads / Failure of the last tracked workflow to close, passed to the next start. */
  lastCompletionResult?: string;
  continuedFailure?: string;
}

export class Sched {
  schedule: Schedule;
  spec: CompiledSpec;
  wakeup?: TimerHandle;
  /** Runs whose history waiters already include this schedule's watcher. */
  watching = new Set<string>();
  deleted = false;

  constructor(
    readonly ns: string,
    public s: ScheduleState,
  ) {
    this.schedule = api.schedule.v1.Schedule.decode(Buffer.from(s.schedule, 'base64'));
    this.spec = new CompiledSpec(this.schedule.spec ?? {});
  }

  setSchedule(schedule: Schedule): void {
    this.schedule = schedule;
    this.spec = new CompiledSpec(schedule.spec ?? {});
  }

  /** The state to persist, with the schedule encoded as it is now. */
  record(): ScheduleState {
    this.s.schedule = encodeSchedule(this.schedule);
    return this.s;
  }

  get paused(): boolean {
    return this.schedule.state?.paused === true;
  }
}

export function encodeSchedule(schedule: Schedule): string {
  return Buffer.from(api.schedule.v1.Schedule.encode(schedule).finish()).toString('base64');
}

export const DEFAULT_CATCHUP_MS = 365 * 86400_000;
export const MIN_CATCHUP_MS = 10_000;
export const RECENT_ACTIONS = 10;
export const MAX_BUFFER = 1000;
export const RUNNING = enums.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;

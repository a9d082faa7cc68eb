/**
 * The overlap policies (Temporal's ProcessBuffer, service/worker/scheduler/buffer.go): given the
 * buffered starts and whether a workflow of the schedule is still running, which starts now, which
 * wait, which are dropped, and whether the running one must be cancelled or terminated first. A
 * start's policy is resolved here, as late as possible, so an update of the policy reaches starts
 * already buffered.
 */
import { enums } from '../proto';
import type { BufferedStart } from './state';

const P = enums.ScheduleOverlapPolicy;

export interface BufferOutcome {
  /** Starts the time allows regardless of what runs (ALLOW_ALL). */
  overlapping: BufferedStart[];
  /** The one start that may run alone now. */
  alone?: BufferedStart;
  /** What stays buffered until the running workflow closes. */
  buffer: BufferedStart[];
  skipped: number;
  cancel: boolean;
  terminate: boolean;
}

export function resolveBuffer(starts: BufferedStart[], running: boolean, policyOf: (overlap: number) => number): BufferOutcome {
  const out: BufferOutcome = { overlapping: [], buffer: [], skipped: 0, cancel: false, terminate: false };
  for (const start of starts) {
    const policy = policyOf(start.overlap);
    if (policy === P.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL) {
      out.overlapping.push(start);
      continue;
    }
    if (!running && !out.alone) {
      out.alone = start;
      continue;
    }
    switch (policy) {
      case P.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE:
        if (out.buffer.length === 0) out.buffer.push(start);
        else out.skipped++;
        break;
      case P.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL:
        out.buffer.push(start);
        break;
      case P.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER:
      case P.SCHEDULE_OVERLAP_POLICY_TERMINATE_OTHER:
        if (running) {
          // The running one goes first; this start waits in the buffer until it has closed.
          if (policy === P.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER) out.cancel = true;
          else out.terminate = true;
          out.buffer.push(start);
        } else {
          out.alone = start; // nothing runs yet: the later start replaces the earlier one
        }
        break;
      default: // SKIP
        out.skipped++;
    }
  }
  // Overlapping starts would be cancelled or terminated at once with the running one.
  if (out.cancel || out.terminate) out.overlapping = [];
  return out;
}

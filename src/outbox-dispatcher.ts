// The outbox dispatcher (ARCHITECTURE "Flow of a request"; docs/automations.md "Dispatch"):
// after a write commits, each new outbox event starts one automation-run workflow per ACTIVE
// automation bound to its event. Every API process runs one; they share the work through the
// database:
// - an event is claimed with FOR UPDATE SKIP LOCKED and a lease (claimed_until), in a short
//   transaction of its own, so no other dispatcher takes it while the lease runs and nothing
//   holds a lock while Temporal is called;
// - the workflow id is automation-run:<automation id>:<event id> and a duplicate start is refused
//   (REJECT_DUPLICATE), so an event whose start succeeded but whose marking was lost (a crash, a
//   lease that ran out) never runs an automation twice;
// - an event still undispatched when its lease ends is claimed again by the next pass (the
//   sweep): a crash between commit and start, or a start that failed, loses nothing.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Pool } from 'pg';
import type { AutomationRunInput } from './activities/automations';
import type { Config } from './config';
import { entityIdOf } from './domain/automations/catalogue';
import type { Logger } from './log';
import { searchAttributes } from './search-attributes';

export const automationRunWorkflowId = (automationId: string, eventId: string) => `automation-run:${automationId}:${eventId}`;

/** Events per claim, small enough to start well within the lease; a pass claims until none is left. */
const BATCH = 50;
/** Starts in flight at once. */
const CONCURRENCY = 32;

interface ClaimedEvent {
  id: string;
  organisation_id: string;
  type: string;
  entity_type: string;
  entity_id: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

interface ActiveAutomation {
  id: string;
  organisation_id: string;
  name: string;
  entity: string;
  event: string;
}

const CLAIM = `UPDATE outbox_events SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
WHERE id IN (
  SELECT id FROM outbox_events
  WHERE dispatched_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
  ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING id, organisation_id, type, entity_type, entity_id, payload, created_at`;

const AUTOMATIONS = `SELECT a.id, a.organisation_id, a.name, a.entity, a.event FROM automations a
JOIN unnest($1::uuid[], $2::text[]) AS e(organisation_id, event) ON a.organisation_id = e.organisation_id AND a.event = e.event
WHERE a.life_cycle_state = 'ACTIVE'`;

// Runs load their event, snapshot included, from here (their inputs carry ids only), so an event
// keeps its snapshot while it has runs; anonymisation clears it (src/domain/contacts/anonymise.ts).
// An event that started no run ($2) needs none: its snapshot goes now.
const MARK = `UPDATE outbox_events SET dispatched_at = now(), claimed_until = NULL, last_error = NULL,
  payload = CASE WHEN id = ANY($2::uuid[]) THEN payload - 'contact' ELSE payload END
WHERE id = ANY($1::uuid[])`;

const FAILED = `UPDATE outbox_events SET last_error = $2 WHERE id = $1`;

export interface DispatcherOptions {
  /** How often a pass runs without being kicked: the sweep of events left behind. */
  pollMs: number;
  /** How long a claim keeps other dispatchers off an event. */
  leaseSeconds: number;
}

export class OutboxDispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly client: Client,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** After a commit that may have written events: run a pass now (or right after the current one). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = null;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.closed && (await this.pass()) === BATCH);
      } catch (err) {
        this.log.warn({ err }, 'outbox dispatch pass failed; the next pass retries');
      }
    } while (this.again && !this.closed);
  }

  /** Claims one batch and starts its workflows; answers how many events it claimed. */
  async pass(): Promise<number> {
    const { rows: events } = await this.pool.query<ClaimedEvent>(CLAIM, [BATCH, this.options.leaseSeconds]);
    if (!events.length) return 0;
    // Each (organisation, event type) once: the join would repeat an automation per event.
    const pairs = [...new Map(events.map((e) => [`${e.organisation_id}:${e.type}`, e])).values()];
    const { rows: automations } = await this.pool.query<ActiveAutomation>(AUTOMATIONS, [
      pairs.map((e) => e.organisation_id),
      pairs.map((e) => e.type),
    ]);
    const done: string[] = [];
    const runless: string[] = [];
    await eachLimited(events, CONCURRENCY, async (event) => {
      const bound = automations.filter((a) => a.organisation_id === event.organisation_id && a.event === event.type);
      try {
        for (const automation of bound) await this.startRun(event, automation);
        done.push(event.id);
        if (!bound.length) runless.push(event.id);
      } catch (err) {
        this.log.warn({ err, eventId: event.id }, 'automation run start failed; the event is retried when its lease ends');
        await this.pool.query(FAILED, [event.id, String((err as Error).message ?? err).slice(0, 1000)]).catch(() => undefined);
      }
    });
    if (done.length) await this.pool.query(MARK, [done, runless]);
    return events.length;
  }

  private async startRun(event: ClaimedEvent, automation: ActiveAutomation): Promise<void> {
    // Ids only: the history (and the Temporal UI) never holds the event's snapshot.
    const input: AutomationRunInput = { organisationId: event.organisation_id, automationId: automation.id, eventId: event.id };
    try {
      await this.client.workflow.start('automationRunWorkflow', {
        workflowId: automationRunWorkflowId(automation.id, event.id),
        taskQueue: this.config.TEMPORAL_TASK_QUEUE,
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: searchAttributes({
          organisationId: event.organisation_id,
          automationId: automation.id,
          entityType: automation.entity,
          entityId: entityIdOf(automation.entity, event.payload),
          eventType: event.type,
          eventId: event.id,
        }),
      });
    } catch (err) {
      // Started before (by this or another dispatcher): the run exists, which is all we want.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

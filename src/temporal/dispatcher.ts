// The outbox dispatcher (ARCHITECTURE "Flow of a request"; docs/DEVELOPING.md "From a commit to a
// workflow"): the only code that starts or signals a workflow because a write committed. Every
// API process runs one; they share the work through the database. A pass does two things:
// - fan-out: each new outbox event (src/domain/events/outbox.ts) starts one automation run per
//   ACTIVE automation bound to its event. The events are claimed with a lease (claimed_until) in
//   one statement that also reads their automations, the runs are started (id from automation and
//   event, REJECT_DUPLICATE), and the events marked dispatched: no lock is held while Temporal is
//   called, and a claim repeated after a crash or a lost marking starts nothing twice. The event is
//   the run's intent (issue 32: a row of its own per run cost three writes and a claim);
// - intents (workflow_intents, src/temporal/intents.ts): claimed with FOR UPDATE SKIP LOCKED and a
//   lease (claimed_until) in a short transaction of their own, then performed. A start refuses a
//   duplicate id (REJECT_DUPLICATE) and "already started" counts as done, so an intent whose start
//   succeeded but whose marking was lost (a crash, a lease that ran out) never runs a workflow
//   twice; a signal to a workflow that is gone is done too (it re-reads its records when it runs).
//   A failure records last_error and pushes claimed_until out (backoff), and the sweep retries it.
// It is kicked after every write (src/api/app.ts afterWrite) and sweeps every OUTBOX_POLL_MS for the
// rest: another replica's or a worker's writes, and what a crash between commit and start left.
import { context, ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Pool } from 'pg';
import type { Config } from '../config';
import { entityIdOf } from '../domain/automations/catalogue';
import type { Logger } from '../log';
import { automationRunWorkflowId, type AutomationRunInput } from '../workflows/contracts';
import { isSignalName, isWorkflowType, STARTS_AGAIN_AFTER_FAILURE, type WorkflowType } from './registry';
import { searchAttributes, type SearchValues } from './search-attributes';
import { instruments } from '../telemetry/instruments';
import { contextOf, inSpan } from '../telemetry/trace';

/** Rows per claim, small enough to perform well within the lease; a pass claims until none is left. */
const BATCH = 50;
/** Temporal calls in flight at once. */
const CONCURRENCY = 32;
/** The longest wait between two attempts of a failing intent. */
const MAX_BACKOFF_SECONDS = 300;

interface ClaimedEvent {
  id: string;
  organisation_id: string;
  type: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** The trace of the write that recorded it (docs/operations.md "Traces"). */
  traceparent: string | null;
  /** The ACTIVE automations bound to the event's type in its organisation. */
  automations: Array<{ id: string; entity: string }>;
}

interface ClaimedIntent {
  id: string;
  organisation_id: string;
  kind: 'start' | 'signal' | 'signalWithStart';
  workflow_type: string | null;
  workflow_id: string;
  input: unknown;
  search_attributes: SearchValues | null;
  signal_name: string | null;
  signal_args: unknown[] | null;
  attempts: number;
  traceparent: string | null;
}

// A lease rather than a row lock, so that no lock (and on the embedded database, no transaction
// holding its one backend) waits for Temporal: the claim, each event with the ACTIVE automations
// bound to it, in one statement. A dispatcher that dies leaves the lease to end; the next claim
// starts the same ids again, which Temporal refuses as duplicates.
const CLAIM_EVENTS = `WITH claimed AS (
  UPDATE outbox_events SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
  WHERE id IN (
    SELECT id FROM outbox_events
    WHERE dispatched_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
  RETURNING id, organisation_id, type, payload, attempts, traceparent)
SELECT c.id, c.organisation_id, c.type, c.payload, c.attempts, c.traceparent, coalesce((
  SELECT json_agg(json_build_object('id', a.id, 'entity', a.entity) ORDER BY a.id) FROM automations a
  WHERE a.organisation_id = c.organisation_id AND a.event = c.type AND a.life_cycle_state = 'ACTIVE'), '[]') AS automations
FROM claimed c`;

// Runs load their event, snapshot included, from here (their inputs carry ids only), so an event
// keeps its snapshot while it has runs; anonymisation clears it (src/domain/contacts/anonymise.ts).
// An event that started no run ($2) needs none: its snapshot goes now.
const MARK_EVENTS = `UPDATE outbox_events SET dispatched_at = now(), claimed_until = NULL, last_error = NULL,
  payload = CASE WHEN id = ANY($2::uuid[]) THEN payload - 'contact' ELSE payload END
WHERE id = ANY($1::uuid[])`;

const FAILED_EVENT = `UPDATE outbox_events SET last_error = $2, claimed_until = now() + make_interval(secs => $3) WHERE id = $1`;

const CLAIM_INTENTS = `UPDATE workflow_intents SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
WHERE id IN (
  SELECT id FROM workflow_intents
  WHERE dispatched_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
  ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING id, organisation_id, kind, workflow_type, workflow_id, input, search_attributes, signal_name, signal_args, attempts, traceparent`;

const MARK_INTENTS = `UPDATE workflow_intents SET dispatched_at = now(), claimed_until = NULL, last_error = NULL WHERE id = ANY($1::uuid[])`;

const FAILED_INTENT = `UPDATE workflow_intents SET last_error = $2, claimed_until = now() + make_interval(secs => $3) WHERE id = $1`;

export interface DispatcherOptions {
  /** How often a pass runs without being kicked: the sweep of what was left behind. */
  pollMs: number;
  /** How long a claim keeps other dispatchers off an intent. */
  leaseSeconds: number;
}

export class OutboxDispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** flush() callers, resolved when a pass that began after their call has ended. */
  private waiting: Array<() => void> = [];

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

  /** After a commit that may have written events or intents: run a pass now (or right after the current one). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // Passes serve every writer: none runs in the context (the trace) of the request that kicked it.
    this.running = context.with(ROOT_CONTEXT, () => this.passes()).finally(() => {
      this.running = null;
    });
  }

  /**
   * Kicks a pass and resolves once a pass that began after this call has ended: what the caller
   * committed before calling was performed, or failed and waits for its retry.
   */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.kick();
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
      const waiting = this.waiting.splice(0);
      try {
        // A batch not filled means nothing was left when it was claimed: what is written later kicks again.
        for (let full = true; full && !this.closed; ) full = (await this.batches()).some((n) => n === BATCH);
      } catch (err) {
        this.log.warn({ err }, 'outbox dispatch pass failed; the next pass retries');
      }
      waiting.forEach((resolve) => resolve());
    } while (this.again && !this.closed);
    // Closed meanwhile: nobody is left waiting for a pass that will not come.
    this.waiting.splice(0).forEach((resolve) => resolve());
  }

  /** One batch of each: answers how many events and intents it claimed (none: nothing is left). */
  async pass(): Promise<number> {
    const [events, intents] = await this.batches();
    return events + intents;
  }

  private async batches(): Promise<[events: number, intents: number]> {
    return [await this.fanOut(), await this.performIntents()];
  }

  /**
   * Outbox events to automation runs: claims a batch, starts one run per event and bound
   * automation (id from both, so a start repeated after a crash is refused as a duplicate), and
   * marks the events whose runs all started; answers how many events it claimed.
   */
  async fanOut(): Promise<number> {
    const { rows: events } = await this.pool.query<ClaimedEvent>(CLAIM_EVENTS, [BATCH, this.options.leaseSeconds]);
    if (!events.length) return 0;
    const done: string[] = [];
    const runless = events.filter((e) => !e.automations.length).map((e) => e.id);
    await eachLimited(events, CONCURRENCY, async (event) => {
      try {
        for (const automation of event.automations) await dispatching(event.traceparent, 'automation_run', 'automationRunWorkflow', () => this.startRun(event, automation));
        done.push(event.id);
      } catch (err) {
        await this.retryLater(FAILED_EVENT, event, err, { eventId: event.id }, 'automation run start failed; retried after a backoff');
      }
    });
    if (done.length) await this.pool.query(MARK_EVENTS, [done, runless]);
    return events.length;
  }

  private async startRun(event: ClaimedEvent, automation: { id: string; entity: string }): Promise<void> {
    // Ids only: the history (and the Temporal UI) never holds the event's snapshot.
    const input: AutomationRunInput = { organisationId: event.organisation_id, automationId: automation.id, eventId: event.id };
    const search: SearchValues = {
      organisationId: event.organisation_id,
      automationId: automation.id,
      entityType: automation.entity,
      entityId: entityIdOf(automation.entity, event.payload),
      eventType: event.type,
      eventId: event.id,
    };
    try {
      await this.client.workflow.start('automationRunWorkflow' satisfies WorkflowType, {
        workflowId: automationRunWorkflowId(automation.id, event.id),
        taskQueue: this.config.TEMPORAL_TASK_QUEUE,
        args: [input],
        typedSearchAttributes: searchAttributes(search),
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    } catch (err) {
      // Started before (a lost marking, an expired lease, another replica): the run exists.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  /** Claims one batch of intents and performs them; answers how many it claimed. */
  async performIntents(): Promise<number> {
    const { rows: intents } = await this.pool.query<ClaimedIntent>(CLAIM_INTENTS, [BATCH, this.options.leaseSeconds]);
    if (!intents.length) return 0;
    const done: string[] = [];
    await eachLimited(intents, CONCURRENCY, async (intent) => {
      try {
        await dispatching(intent.traceparent, intent.kind, intent.workflow_type ?? intent.signal_name ?? '', () => this.perform(intent));
        done.push(intent.id);
      } catch (err) {
        await this.retryLater(FAILED_INTENT, intent, err, { intentId: intent.id, workflowId: intent.workflow_id }, 'workflow intent failed; retried after a backoff');
      }
    });
    if (done.length) await this.pool.query(MARK_INTENTS, [done]);
    return intents.length;
  }

  /** A claimed event or intent whose Temporal call failed: its error kept, its lease pushed out by 2^attempts s (at most MAX_BACKOFF_SECONDS). */
  private async retryLater(statement: string, row: { id: string; attempts: number }, err: unknown, about: object, message: string): Promise<void> {
    const backoff = Math.min(2 ** row.attempts, MAX_BACKOFF_SECONDS);
    this.log.warn({ err, ...about, retryInSeconds: backoff }, message);
    await this.pool.query(statement, [row.id, String((err as Error).message ?? err).slice(0, 1000), backoff]).catch(() => undefined);
  }

  private async perform(intent: ClaimedIntent): Promise<void> {
    const { workflow_id: workflowId } = intent;
    // Checked against the registry by name; the arguments were typed when the intent was written.
    const signal = intent.signal_name === null ? undefined : isSignalName(intent.signal_name) ? intent.signal_name : unknown('signal', intent.signal_name);
    const signalArgs = intent.signal_args ?? [];
    if (intent.kind === 'signal') {
      try {
        await this.client.workflow.getHandle(workflowId).signal(signal!, ...signalArgs);
      } catch (err) {
        // Nothing runs under that id: the workflow it was for has ended and needs no news.
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
      return;
    }
    const type = intent.workflow_type ?? '';
    if (!isWorkflowType(type)) unknown('workflow type', type);
    const workflow: string = type;
    const options = {
      workflowId,
      taskQueue: this.config.TEMPORAL_TASK_QUEUE,
      args: [intent.input] as [never],
      typedSearchAttributes: searchAttributes({ organisationId: intent.organisation_id, ...intent.search_attributes }),
    };
    if (intent.kind === 'signalWithStart') {
      // Starts it when none runs (a closed one of the id included), else only signals it.
      await this.client.workflow.signalWithStart(workflow, { ...options, signal: signal!, signalArgs });
      return;
    }
    try {
      const reuse = STARTS_AGAIN_AFTER_FAILURE.has(type) ? WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY : WorkflowIdReusePolicy.REJECT_DUPLICATE;
      await this.client.workflow.start(workflow, { ...options, workflowIdReusePolicy: reuse });
    } catch (err) {
      // Started before (by this or another dispatcher): the run exists, which is all we want.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
}

/**
 * One Temporal call of the dispatcher, in a span that continues the trace its row was written in
 * (Temporal's client interceptor carries it into the workflow), counted as a start or a failure.
 */
async function dispatching(traceparent: string | null, kind: string, name: string, call: () => Promise<void>): Promise<void> {
  const labels = { 'backoffice.dispatch.kind': kind, 'backoffice.workflow': name };
  try {
    await inSpan(`dispatch ${name}`, labels, call, { kind: SpanKind.PRODUCER, parent: contextOf(traceparent) });
    instruments().dispatcherStarts.add(1, labels);
  } catch (err) {
    instruments().dispatcherFailures.add(1, labels);
    throw err;
  }
}

function unknown(what: string, name: string): never {
  throw new Error(`unknown ${what} "${name}": not in src/temporal/registry.ts`);
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

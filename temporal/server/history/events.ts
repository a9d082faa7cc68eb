/**
 * Building history events by name: `'TimerFired'` maps to EVENT_TYPE_TIMER_FIRED and the
 * `timerFiredEventAttributes` field, so call sites stay short and typos fail at startup.
 */
import { EventType, IHistoryEvent, ts, L } from '../proto';

const cache = new Map<string, { type: number; field: string }>();

export function eventMeta(name: string): { type: number; field: string } {
  let m = cache.get(name);
  if (!m) {
    const enumName = 'EVENT_TYPE_' + name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
    const type = (EventType as unknown as Record<string, number>)[enumName];
    if (type === undefined) throw new Error(`Unknown history event ${name}`);
    m = { type, field: name[0].toLowerCase() + name.slice(1) + 'EventAttributes' };
    cache.set(name, m);
  }
  return m;
}

let taskId = Date.now();

/** Creates an event without an id (ids are assigned when it enters the history). */
export function makeEvent(name: string, attrs: object, now = Date.now()): IHistoryEvent {
  const m = eventMeta(name);
  return { eventId: L(0), eventTime: ts(now), eventType: m.type, taskId: L(taskId++), [m.field]: attrs } as unknown as IHistoryEvent;
}

/** The attributes object of an event, whatever its type. */
export function attrsOf(e: IHistoryEvent): Record<string, unknown> {
  for (const [k, v] of Object.entries(e)) {
    if (k.endsWith('EventAttributes') && v) return v as Record<string, unknown>;
  }
  return {};
}

export const CLOSE_EVENTS = new Set<number>([
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
]);

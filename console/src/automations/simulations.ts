// What an automation would do (POST /automations/{id}/simulations: one record, or a replay over
// history) and how it did (GET /automations/{id}/performance), docs/automations.md "Simulations"
// and "Performance". The API counts by UTC day, so the console's days here are UTC days: a day
// picked and a day of the chart are the ones the API counted.
import { api } from '../api/client';
import { ok } from '../api/errors';
import type { Answer, Get } from '../api/types';
import { utcDay } from '../components/format';
import { dayInZone, endOfDay, startOfDay } from '../components/zone';

export type RunVerdict = Answer<'/automations/{id}/simulations', 'post'>['runs'][number];
export type ActionVerdict = RunVerdict['actions'][number];
export type FilterVerdict = ActionVerdict['filters'][number];
export type Simulation = Get<'/automations/{id}/simulations/{simulation_id}'>;
export type Performance = Get<'/automations/{id}/performance'>;
export type RunCounts = Performance['buckets'][number]['runs'];

/** The zone of every day on these pages: the API's. */
export const API_ZONE = 'UTC';

/** What the automation, as saved now, would do for one record (a contact's id or code, another entity's id). */
export async function tryRecord(automationId: string, entityId: string): Promise<RunVerdict> {
  const answer = await ok(api.POST('/automations/{id}/simulations', { params: { path: { id: automationId } }, body: { entity_id: entityId } }));
  // The 200 answer: RECORD mode always is (the 202 one is a replay's).
  return (answer as Answer<'/automations/{id}/simulations', 'post'>).runs[0];
}

/** Starts a replay over `from`..`to` (YYYY-MM-DD, UTC days, both whole): its id. */
export async function startReplay(automationId: string, from: string, to: string): Promise<string> {
  const body = { from_date: startOfDay(from, API_ZONE), to_date: to ? endOfDay(to, API_ZONE) : undefined };
  const answer = await ok(api.POST('/automations/{id}/simulations', { params: { path: { id: automationId } }, body }));
  return (answer as unknown as { id: string }).id;
}

export const REPLAY_COLOURS: Record<Simulation['state'], string> = { RUNNING: 'blue', COMPLETED: 'green', FAILED: 'red', CANCELLED: 'gray' };

/** A replay's window as its UTC days (its end is the inclusive last second of a day). */
export const windowOf = (s: Pick<Simulation, 'from_date' | 'to_date'>) => `${utcDay(s.from_date)} – ${utcDay(s.to_date)}`;

export const loadReplay = (automationId: string, simulationId: string) =>
  ok(api.GET('/automations/{id}/simulations/{simulation_id}', { params: { path: { id: automationId, simulation_id: simulationId } } }));

export const loadReplays = (automationId: string, page: number, size: number) =>
  ok(api.GET('/automations/{id}/simulations', { params: { path: { id: automationId }, query: { page, size } } }));

export const cancelReplay = (automationId: string, simulationId: string) =>
  ok(api.POST('/automations/{id}/simulations/{simulation_id}/cancel', { params: { path: { id: automationId, simulation_id: simulationId } } }));

/** The last `days` UTC days, today included: the window of the list's counts and the chart's default. */
export function lastDays(days: number): { from: string; to: string } {
  return { from: dayInZone(API_ZONE, days - 1), to: dayInZone(API_ZONE) };
}

/** Performance over whole UTC days `from`..`to` (YYYY-MM-DD). */
export function loadPerformance(automationId: string, from: string, to: string, granularity: 'DAY' | 'HOUR' = 'DAY') {
  const query = { from_date: String(startOfDay(from, API_ZONE) ?? ''), to_date: String(endOfDay(to, API_ZONE) ?? ''), granularity };
  return ok(api.GET('/automations/{id}/performance', { params: { path: { id: automationId }, query } }));
}

/** The run states of the performance answer, in the order the chart stacks them, with their colours. */
export const OUTCOMES: Array<{ state: keyof RunCounts; label: string; colour: string }> = [
  { state: 'COMPLETED', label: 'Completed', colour: '#2f9e44' },
  { state: 'SKIPPED', label: 'Skipped', colour: '#868e96' },
  { state: 'FAILED', label: 'Failed', colour: '#e03131' },
  { state: 'REJECTED', label: 'Rejected', colour: '#e8590c' },
  { state: 'WAITING_FOR_APPROVAL', label: 'Waiting for approval', colour: '#fab005' },
];

/** Runs of the window by state, and all of them: sums of the API's buckets (counts, whole numbers). */
export function totals(perf: Performance): RunCounts & { all: number } {
  const sum = Object.fromEntries(OUTCOMES.map((o) => [o.state, perf.buckets.reduce((n, b) => n + b.runs[o.state], 0)])) as RunCounts;
  return { ...sum, all: OUTCOMES.reduce((n, o) => n + sum[o.state], 0) };
}

/**
 * Every bucket of `from`..`to` (epoch seconds, UTC), those the API left out (no run, no event)
 * as `empty`: a chart of days shows the quiet ones too.
 */
export function everyBucket<B extends { timestamp: number }>(buckets: B[], from: number, to: number, step: number, empty: (timestamp: number) => B): B[] {
  const byStart = new Map(buckets.map((b) => [b.timestamp, b]));
  const out: B[] = [];
  for (let t = from - (from % step); t <= to; t += step) out.push(byStart.get(t) ?? empty(t));
  return out;
}

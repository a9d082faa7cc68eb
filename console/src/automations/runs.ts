// Runs of an automation, read from its adaptor action records (one per action and event): the API
// has no run resource, so a run is the records of one event, in the sequence's order.
import { api } from '../api/client';
import { ok } from '../api/errors';
import type { ActionRecord, StoredAction } from '../api/types';

export interface Run {
  eventId: string;
  eventType: string;
  entity: ActionRecord['entity'];
  at: number;
  status: 'COMPLETED' | 'SKIPPED' | 'PENDING' | 'FAILED' | 'REJECTED';
  workflowId: string;
  steps: ActionRecord[];
}

function statusOf(steps: ActionRecord[]): Run['status'] {
  const has = (s: ActionRecord['status']) => steps.some((r) => r.status === s);
  if (has('FAILED')) return 'FAILED';
  if (has('REJECTED')) return 'REJECTED';
  if (has('PENDING')) return 'PENDING';
  if (steps.every((r) => r.status === 'SKIPPED')) return 'SKIPPED';
  return 'COMPLETED';
}

/** The latest runs (about `size`), newest first: the latest records of each adaptor action the automation uses. */
export async function loadRuns(automationId: string, actions: StoredAction[], size = 20): Promise<Run[]> {
  const kinds = [...new Set(actions.map((a) => `${a.adaptor}:${a.adaptor_action}`))];
  const pages = await Promise.all(
    kinds.map((k) => {
      const [id, action_id] = k.split(':');
      return ok(api.GET('/adaptors/{id}/actions/{action_id}/records', { params: { path: { id, action_id }, query: { automation_id: automationId, size } } }));
    }),
  );
  const position = new Map(actions.map((a) => [a.id, a.order]));
  const byEvent = new Map<string, ActionRecord[]>();
  for (const r of pages.flatMap((p) => p.content)) byEvent.set(r.event.id, [...(byEvent.get(r.event.id) ?? []), r]);
  const runs = [...byEvent.values()].map((records): Run => {
    const steps = records.sort((a, b) => (position.get(a.automation_action_id) ?? 999) - (position.get(b.automation_action_id) ?? 999));
    return {
      eventId: steps[0].event.id,
      eventType: steps[0].event.type,
      entity: steps[0].entity,
      at: Math.min(...steps.map((s) => s.created_on)),
      status: statusOf(steps),
      workflowId: steps[0].workflow_id,
      steps,
    };
  });
  return runs.sort((a, b) => b.at - a.at).slice(0, size);
}

export const STATUS_COLOURS: Record<string, string> = {
  COMPLETED: 'green',
  APPROVED: 'green',
  SKIPPED: 'gray',
  PENDING: 'yellow',
  FAILED: 'red',
  REJECTED: 'red',
};

/** The Temporal UI's page of a workflow, when the service told where its UI is (src/api/console.ts). */
export function temporalLink(workflowId: string): string | undefined {
  const base = document.querySelector<HTMLMetaElement>('meta[name="temporal-ui"]')?.content;
  return base ? `${base}/workflows/${encodeURIComponent(workflowId)}` : undefined;
}

export const when = (epoch: number) => new Date(epoch * 1000).toLocaleString();

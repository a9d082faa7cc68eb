// An automation's runs (GET /automations/{id}/runs): one per event it ran for, newest first, with
// each action's outcome and its reason, as the service derives them from the runs' records.
import { api } from '../api/client';
import { ok } from '../api/errors';
import type { AutomationRun } from '../api/types';

export interface RunPage {
  runs: AutomationRun[];
  total: number;
}

export async function loadRuns(automationId: string, page = 1, size = 20): Promise<RunPage> {
  const res = await ok(api.GET('/automations/{id}/runs', { params: { path: { id: automationId }, query: { page, size } } }));
  return { runs: res.content, total: res.paging.total };
}

/** Badge colours of run states and action outcomes. */
export const STATUS_COLOURS: Record<string, string> = {
  COMPLETED: 'green',
  APPROVED: 'green',
  RUNNING: 'blue',
  SKIPPED: 'gray',
  PENDING: 'yellow',
  WAITING_FOR_APPROVAL: 'yellow',
  FAILED: 'red',
  REJECTED: 'red',
};

/** How a state reads in a badge: WAITING FOR APPROVAL. */
export const stateLabel = (state: string) => state.replace(/_/g, ' ');

/** The Temporal UI's page of a workflow, when the service told where its UI is (src/api/console.ts). */
export function temporalLink(workflowId: string): string | undefined {
  const base = document.querySelector<HTMLMetaElement>('meta[name="temporal-ui"]')?.content;
  return base ? `${base}/workflows/${encodeURIComponent(workflowId)}` : undefined;
}


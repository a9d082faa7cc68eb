// An automation's runs (GET /automations/{id}/runs): one per event it ran for, newest first, with
// each action's outcome and its reason, as the service derives them from the runs' records.
import { api } from '../api/client';
import { ok } from '../api/errors';
import type { AttributeDef } from '../api/types';
import { OPERATOR_LABELS } from './values';

export const loadRuns = (automationId: string, page: number, size: number) =>
  ok(api.GET('/automations/{id}/runs', { params: { path: { id: automationId }, query: { page, size } } }));

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
  // A simulation's verdicts (docs/automations.md "Simulations").
  WOULD_RUN: 'green',
  WOULD_FAIL: 'red',
};

/** How a state reads in a badge: WAITING FOR APPROVAL. */
export const stateLabel = (state: string) => state.replace(/_/g, ' ');

/** The Temporal UI's page of a workflow, when the service told where its UI is (src/api/console.ts). */
export function temporalLink(workflowId: string): string | undefined {
  const base = document.querySelector<HTMLMetaElement>('meta[name="temporal-ui"]')?.content;
  return base ? `${base}/workflows/${encodeURIComponent(workflowId)}` : undefined;
}


const NO_GROUP_MATCHED = /^no filter group matched \((.*)\)$/;
const GROUP_FAILED = /^group (\d+): (\S+) (\S+) did not match$/;

/**
 * A skip reason in the words of the builder: the API's "no filter group matched (group 1:
 * COUNTRY_CODE EQUAL did not match)" becomes "Conditions not met: Country is …". Any
 * other reason is shown as the API gave it.
 */
export function explainReason(reason: string, attributes: AttributeDef[]): string {
  const groups = NO_GROUP_MATCHED.exec(reason)?.[1].split('; ');
  const parts = groups?.map((g) => GROUP_FAILED.exec(g));
  if (!parts || parts.some((p) => !p)) return reason;
  const label = (code: string) => attributes.find((a) => a.code === code)?.label ?? code;
  const said = parts.map((p) => `${label(p![2])} ${OPERATOR_LABELS[p![3]] ?? p![3]} …`);
  return `Conditions not met: ${said.length === 1 ? said[0] : said.map((s, i) => `group ${i + 1}, ${s}`).join('; ')}`;
}

import { error, redirect } from '@sveltejs/kit';
import { fetchWorkflowForRunId } from '@temporalio/ui/services/workflow-service';

/** A workflow id alone opens its latest run. */
export async function load({ url, params }) {
  const { runId } = await fetchWorkflowForRunId({ namespace: params.namespace, workflowId: params.workflow });
  if (!runId) error(404);
  redirect(302, `${url.pathname}/${runId}`);
}

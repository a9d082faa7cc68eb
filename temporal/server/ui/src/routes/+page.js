import { redirect } from '@sveltejs/kit';
import { routeForWorkflows } from '@temporalio/ui/utilities/route-for';

/** The start page is the default namespace's workflow list. */
export async function load({ parent }) {
  const { settings } = await parent();
  redirect(302, routeForWorkflows({ namespace: settings.defaultNamespace }));
}

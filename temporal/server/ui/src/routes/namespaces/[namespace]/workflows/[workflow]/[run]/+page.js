import { redirect } from '@sveltejs/kit';

/** A run opens on its history. */
export function load({ url }) {
  redirect(302, `${url.pathname}/history`);
}

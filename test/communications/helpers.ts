import { api } from '../support/api';

/** A contact of the tenant, with an e-mail and a phone unless overridden. */
export async function createContact(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/contacts', { key, body: { contact_type: 'PERSON', last_name: 'Test', ...body } });
  if (res.status !== 200) throw new Error(`POST /contacts: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Polls the communication until it leaves PENDING (or the time is up). */
export async function settled(key: string, id: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api('GET', `/communications/${id}`, { key });
    expect(res.status).toBe(200);
    if (res.body.life_cycle_state !== 'PENDING' || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The path of a tracking URL below the API base (`/t/...`), whatever host it names. */
export function trackingPath(url: string): string {
  const u = new URL(url.replace(/&amp;/g, '&'));
  return u.pathname.replace(/^.*?(\/t\/)/, '/t/') + u.search;
}

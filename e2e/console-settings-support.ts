// Helpers of the Webhooks and Settings browser tests (e2e/console-webhooks.e2e.ts,
// e2e/console-settings.e2e.ts): reading a shown-once secret, and calling the API as an integrator
// would, with curl trusting the service's own certificate.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { testState } from '../test/support/state';

const run = promisify(execFile);

/** The secret in the shown-once dialog, as a user would select and copy it. */
export async function shownOnceSecret(page: Page): Promise<string> {
  const secret = page.getByRole('dialog').getByTestId('shown-once-secret');
  await secret.waitFor();
  return (await secret.innerText()).trim();
}

/** `curl --cacert <the service's certificate> -H "api_key: <key>" <url>`: the HTTP status and body. */
export async function curl(method: string, route: string, key: string, body?: unknown): Promise<{ status: number; body: string }> {
  const { url, dataDir } = testState();
  const args = ['-sS', '--cacert', path.join(dataDir, 'tls', 'cert.pem'), '-X', method, '-H', `api_key: ${key}`, '-w', '\n%{http_code}'];
  if (body !== undefined) args.push('-H', 'content-type: application/json', '--data', JSON.stringify(body));
  const { stdout } = await run('curl', [...args, url + route]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}


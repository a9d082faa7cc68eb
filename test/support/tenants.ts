import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, SHARED_DATABASE_ENV } from './service-process';
import { testState } from './state';

const run = promisify(execFile);

export interface Tenant {
  organisationId: string;
  secretKey: string;
  publicKey: string;
  admin: { username: string; password: string };
}

let counter = 0;

/**
 * A fresh organisation with an admin user and keys, made the way an operator would: with the
 * admin command line against the running service's database.
 */
export async function createTenant(name = `Test org ${process.pid}-${++counter}`, dataDir?: string, databaseUrl?: string): Promise<Tenant> {
  const out = await adminCli(['create-organisation', '--name', name], dataDir, databaseUrl);
  const parsed = JSON.parse(out) as { organisation_id: string; secret_api_key: string; public_api_key: string; admin: { username: string; password: string } };
  return { organisationId: parsed.organisation_id, secretKey: parsed.secret_api_key, publicKey: parsed.public_api_key, admin: parsed.admin };
}

export async function adminCli(args: string[], dataDir = testState().dataDir, databaseUrl = process.env.DATABASE_URL): Promise<string> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...SHARED_DATABASE_ENV };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'src/admin.ts'), ...args], { cwd: ROOT, env });
  return stdout;
}

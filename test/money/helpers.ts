// Shared by the money reference-data tests: calls, error checks, scoped keys, and a database
// client for what HTTP cannot show (audit rows, closing balances).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPrismaClient, type Db } from '../../src/db/client';
// Type only: importing the module would load PGlite, which jest cannot run in-process.
import type { DatabaseInfo } from '../../src/db/embedded';
import { api, type ApiResponse } from '../support/api';
import { testState } from '../support/state';

export const UNKNOWN_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';

export function expectError(res: ApiResponse, status: number, code: string, attribute?: string): void {
  expect({ status: res.status, code: res.body?.code, attribute: res.body?.attribute }).toEqual({ status, code, attribute });
}

/** POST returning the new id (asserting 200). */
export async function createId(key: string, route: string, body: object): Promise<string> {
  const res = await api('POST', route, { key, body });
  if (res.status !== 200) throw new Error(`POST ${route}: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** A secret key of the tenant holding only the given scopes. */
export async function keyWith(adminKey: string, scopes: string[]): Promise<string> {
  const res = await api('POST', '/api_keys', { key: adminKey, body: { name: `scoped ${scopes.join(',')}`, scopes } });
  expect(res.status).toBe(200);
  return res.body.key as string;
}

/** The unscoped client on the service's database; wrap it with scopedClient() as the pipeline does. */
export function openDatabase(): Db {
  return createPrismaClient(databaseUrl(), { poolSize: 1 });
}

/** The service's database: DATABASE_URL, or the embedded one's socket. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? (JSON.parse(readFileSync(path.join(testState().dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createPrismaClient, type Db } from '../../src/db/client';
import type { DatabaseInfo } from '../../src/db/embedded';

/**
 * On PostgreSQL (DATABASE_URL), a database of the test file's own for the services it starts. On
 * the shared database the shared service's outbox dispatcher would perform their workflow
 * intents, on its own task queue and Temporal server, so a test that holds or kills its service
 * would be testing the shared one instead. On the embedded database every service has a database
 * of its own anyway: `url` is undefined and create/drop do nothing.
 */
export function ownDatabase(label: string) {
  const name = process.env.DATABASE_URL ? `${label}_${process.pid}` : undefined;
  const url = name ? Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString() : undefined;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const urlOf = (dataDir: string) => url ?? (JSON.parse(readFileSync(path.join(dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
  return {
    url,
    /** serviceEnv extras for a service on it (none on the embedded database). */
    env: (url ? { DATABASE_URL: url } : {}) as Record<string, string>,
    create: async () => {
      if (name) await admin(`CREATE DATABASE ${name}`);
    },
    drop: async () => {
      if (name) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
    /** The URL of the database a service on `dataDir` uses: this one, else the embedded one it wrote down. */
    urlOf,
    /** A client (one connection) of that database. */
    connect: (dataDir: string): Db => createPrismaClient(urlOf(dataDir), { poolSize: 1 }),
  };
}

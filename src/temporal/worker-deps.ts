/**
 * What a standalone worker (`npm run worker`) needs besides Temporal: a database and a mailer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ActivityDeps } from '../activities';
import type { Config } from '../config';
import { openDatabase } from '../db/client';
import { DATABASE_INFO_FILE, type DatabaseInfo } from '../db/embedded';
import type { Logger } from '../log';
import { createMailer } from '../mail';
import { registerOwnListener } from '../outbound';

/**
 * The URL of the embedded database served by a running service on this data directory (it
 * writes DATA_DIR/database.json while running), or undefined when none runs.
 */
export function runningEmbeddedDatabaseUrl(dataDir: string): string | undefined {
  const file = path.join(dataDir, DATABASE_INFO_FILE);
  if (!existsSync(file)) return undefined;
  const info = JSON.parse(readFileSync(file, 'utf8')) as DatabaseInfo;
  return isAlive(info.pid) ? info.url : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The service keeps 5 connections of the embedded database spare for other processes
 * (src/service.ts: maxConnections = DATABASE_POOL_SIZE + 5); the admin CLI takes 2 of them.
 */
const EMBEDDED_POOL_SIZE = 3;

/** DATABASE_URL, else the running service's embedded database; the worker never starts one itself. */
export function openWorkerDeps(config: Config, log: Logger): { deps: ActivityDeps; poolSize: number; close(): Promise<void> } {
  const embeddedUrl = config.DATABASE_URL ? undefined : runningEmbeddedDatabaseUrl(config.dataDir);
  const url = config.DATABASE_URL ?? embeddedUrl;
  // The service's embedded database, on a port its configuration does not name (src/outbound).
  if (embeddedUrl) registerOwnListener(new URL(embeddedUrl).port);
  if (!url) {
    throw new Error(`DATABASE_URL is unset and no running service serves an embedded database from ${config.dataDir}: start the service first, or set DATABASE_URL`);
  }
  const poolSize = embeddedUrl ? EMBEDDED_POOL_SIZE : config.DATABASE_POOL_SIZE;
  const database = openDatabase(url, { poolSize });
  const mail = createMailer(config);
  return {
    deps: { db: database.prisma, pool: database.pool, mail, config, log },
    poolSize,
    async close() {
      mail.close();
      await database.close();
    },
  };
}

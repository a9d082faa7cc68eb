// How a test reaches the Temporal frontend of a service it runs: the shared one (testState) or
// its own. The embedded server takes only callers holding its API key (docs/security.md "The
// engine's door"), which the service made in its data directory; a real Temporal server
// (TEMPORAL_CLI's dev server, TEMPORAL_ADDRESS) has none there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { EMBEDDED_KEY_FILE } from '../../src/temporal/connection';
import { testState } from './state';

/** The connection options for the frontend at `address` of the service on `dataDir`. */
export function temporalOptions(address: string, dataDir: string): { address: string; apiKey?: string; tls?: false } {
  const keyFile = path.join(dataDir, EMBEDDED_KEY_FILE);
  return existsSync(keyFile) ? { address, apiKey: readFileSync(keyFile, 'utf8').trim(), tls: false } : { address };
}

/** A client connection; the shared service's when no address is given. */
export function connectTemporal(address?: string, dataDir?: string): Promise<Connection> {
  const state = address && dataDir ? undefined : testState();
  return Connection.connect(temporalOptions(address ?? state!.temporalAddress, dataDir ?? state!.dataDir));
}

/**
 * How a run ended within `ms`: `COMPLETED <result>`, `REFUSED <failure type> <non-retryable>`
 * (raised by the workflow or an activity), or RUNNING (still retrying). For forged starts.
 */
export async function runOutcome(handle: WorkflowHandle, ms = 15_000): Promise<string> {
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('RUNNING'), ms).unref());
  const ended = handle.result().then(
    (r) => `COMPLETED ${JSON.stringify(r)}`,
    (err) => {
      let cause = err instanceof WorkflowFailedError ? err.cause : err;
      if (cause instanceof ActivityFailure) cause = cause.cause;
      return cause instanceof ApplicationFailure ? `REFUSED ${cause.type} ${cause.nonRetryable}` : `FAILED ${String(err)}`;
    },
  );
  return Promise.race([ended, timeout]);
}

/**
 * The embedded Temporal server in a worker thread of the service (started by
 * src/temporal/embedded-server.ts): the engine, its store and the gRPC listener run beside the
 * API, not on its event loop. The parent's logger is a function and cannot cross threads, so log
 * lines go to the parent as messages; it logs them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startTemporalServer, type TemporalServerOptions } from '@backoffice/temporal-server';

export type ServerThreadOptions = Omit<TemporalServerOptions, 'logger'>;
/** `debug`: whether the parent logs debug lines (the server logs one per history read). */
export type ServerThreadData = ServerThreadOptions & { debug: boolean };

export type FromServerThread =
  | { log: { level: string; msg: string; fields?: object } }
  | { ready: { address: string; httpAddress?: string } }
  | { failed: { message: string; code?: string; stack?: string } }
  | { closed: true };

export type ToServerThread = { close: true };

const port = parentPort;
if (!port) throw new Error('embedded-server-thread runs only as a worker thread');

const { debug, ...options } = workerData as ServerThreadData;

function log(level: string, msg: string, fields?: object): void {
  if (level === 'debug' && !debug) return;
  try {
    port!.postMessage({ log: { level, msg, fields } } satisfies FromServerThread);
  } catch {
    // A field the structured clone refuses (a function, a class instance with one): its JSON form.
    port!.postMessage({ log: { level, msg, fields: JSON.parse(JSON.stringify(fields ?? {})) as object } } satisfies FromServerThread);
  }
}

function failed(err: unknown): FromServerThread {
  const e = err instanceof Error ? err : new Error(String(err));
  return { failed: { message: e.message, code: (e as NodeJS.ErrnoException).code, stack: e.stack } };
}

startTemporalServer({ ...options, logger: log }).then(
  (server) => {
    port.postMessage({ ready: { address: server.address, httpAddress: server.httpAddress } } satisfies FromServerThread);
    port.on('message', (m: ToServerThread) => {
      if (!m.close) return;
      // close() answers open long polls and waits for the store's last fsync before it resolves.
      server.close().then(
        () => port.postMessage({ closed: true } satisfies FromServerThread),
        (err) => port.postMessage(failed(err)),
      );
    });
  },
  (err) => port.postMessage(failed(err)),
);

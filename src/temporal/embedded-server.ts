/**
 * Runs the embedded Temporal server (temporal/server) in a worker thread
 * (embedded-server-thread.ts), so the workflow engine and the API do not share one event loop.
 * Clients and the SDK worker reach it over gRPC as before. docs/temporal.md "The embedded server's
 * thread".
 */
import type { Logger } from '../log';
import { startThread } from '../threads';
import type { FromServerThread, ServerThreadData, ServerThreadOptions, ToServerThread } from './embedded-server-thread';

export interface EmbeddedServer {
  address: string;
  httpAddress?: string;
  /** Settles only if the thread ends or throws without having been asked to close. */
  failed: Promise<Error>;
  /** Closes the server (open long polls answered, store flushed) and ends the thread. */
  close(): Promise<void>;
}

export function startEmbeddedServer(options: ServerThreadOptions, log: Logger): Promise<EmbeddedServer> {
  // Lines the parent would drop (debug, when it logs less) are not sent across at all.
  const worker = startThread(__dirname, 'embedded-server-thread', { ...options, debug: log.isLevelEnabled('debug') } satisfies ServerThreadData);
  let closing = false;
  let gone = false;
  let error: Error | undefined;
  let onClosed: ((err?: Error) => void) | undefined;
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));

  return new Promise<EmbeddedServer>((resolve, reject) => {
    let started = false;
    worker.on('message', (m: FromServerThread) => {
      if ('log' in m) {
        const { level, msg, fields } = m.log;
        log[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'debug']({ ...fields }, msg);
      } else if ('ready' in m) {
        started = true;
        resolve({ ...m.ready, failed, close });
      } else if ('failed' in m) {
        error = Object.assign(new Error(m.failed.message), { code: m.failed.code, stack: m.failed.stack });
        // A failed start leaves nothing to close; 'exit' then rejects with this error.
        if (!started) void worker.terminate();
        else if (closing) onClosed?.(error);
      } else if ('closed' in m) {
        onClosed?.();
      }
    });
    // An exception nobody caught in the thread ends it; the 'exit' below reports it.
    worker.on('error', (err) => (error ??= err));
    worker.once('exit', (code) => {
      gone = true;
      const err = error ?? new Error(`embedded Temporal server thread exited with code ${code}`);
      if (!started) reject(err);
      else if (closing) onClosed?.();
      else reportFailure(err);
    });
  });

  async function close(): Promise<void> {
    if (closing) return void (await exited);
    closing = true;
    // A thread that is already gone (it failed: see `failed`) has nothing left to close.
    if (gone) return;
    const done = new Promise<void>((resolve, reject) => (onClosed = (err) => (err ? reject(err) : resolve())));
    worker.postMessage({ close: true } satisfies ToServerThread);
    try {
      await done;
    } finally {
      // Everything is flushed: end the thread whatever timers it still holds.
      await worker.terminate();
    }
  }
}

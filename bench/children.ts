import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface Child<T> {
  ready: T;
  process: ChildProcess;
  /** Sends a command and resolves with the child's `{ reply }` to it (one at a time). */
  ask<R>(msg: object): Promise<R>;
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs a bench/*.ts file in its own Node process (TypeScript through tsx's loader) and waits for
 * its first IPC message, which says where it listens.
 */
export function startChild<T>(file: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = [], timeoutMs = 180_000): Promise<Child<T>> {
  const child = fork(path.join(__dirname, file), [], {
    env,
    execArgv: ['--import', 'tsx', ...nodeArgs],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('message', (msg) => {
      clearTimeout(timer);
      resolve({
        ready: msg as T,
        process: child,
        ask<R>(msg: object) {
          return new Promise<R>((done) => {
            child.once('message', (answer) => done((answer as { reply: R }).reply));
            child.send(msg);
          });
        },
        /** SIGTERM (a graceful close), then SIGKILL if it takes longer than `graceMs`. */
        async stop(graceMs = 30_000) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => {
            process.stderr.write(`${file} did not exit within ${graceMs} ms of SIGTERM: killed\n`);
            child.kill('SIGKILL');
          }, graceMs);
          await exited;
          clearTimeout(timer);
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code} before it was ready`));
    });
  });
}

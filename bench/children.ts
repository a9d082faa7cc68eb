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
        ask: (msg) => askChild(child, msg),
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

/** Sends a command over IPC and resolves with the child's `{ reply }` to it (one at a time). */
export function askChild<R>(child: ChildProcess, msg: object): Promise<R> {
  return new Promise<R>((done) => {
    child.once('message', (answer) => done((answer as { reply: R }).reply));
    child.send(msg);
  });
}

export interface PlainChild {
  /** What the ready line said after the marker, e.g. `127.0.0.1:41233`. */
  ready: string;
  process: ChildProcess;
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs a TypeScript entry point of the project (path from the repository root) without IPC and
 * waits for a stdout line starting with `marker` (e.g. `TEMPORAL_READY host:port` of
 * `npm run temporal`). Its other stdout lines are dropped (read, so the pipe never fills);
 * stderr goes to ours.
 */
export function startLineChild(entry: string, env: NodeJS.ProcessEnv, marker: string, timeoutMs = 120_000): Promise<PlainChild> {
  const child = fork(path.join(__dirname, '..', entry), [], {
    env,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not print ${marker} within ${timeoutMs} ms`));
    }, timeoutMs);
    let buffered = '';
    let ready = false;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (ready) return;
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? ''; // an incomplete last line waits for the rest
      const line = lines.find((l) => l.startsWith(`${marker} `));
      if (!line) return;
      ready = true;
      buffered = '';
      clearTimeout(timer);
      resolve({
        ready: line.slice(marker.length + 1).trim(),
        process: child,
        async stop(graceMs = 30_000) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const kill = setTimeout(() => {
            process.stderr.write(`${entry} did not exit within ${graceMs} ms of SIGTERM: killed\n`);
            child.kill('SIGKILL');
          }, graceMs);
          await exited;
          clearTimeout(kill);
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${entry} exited with ${code} before it was ready`));
    });
  });
}

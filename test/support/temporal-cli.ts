import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';

/** A real Temporal server: `temporal server start-dev` of the CLI named by TEMPORAL_CLI (docs/temporal.md). */
export interface TemporalCli {
  address: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the dev server on free ports with its SQLite file in `dir`, and resolves once its
 * default namespace answers. Another process may take a port between our probe and the
 * server's bind: the server then exits, and a new pair of ports is tried.
 */
export async function startTemporalCli(bin: string, dir: string, attempts = 3): Promise<TemporalCli> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(bin, dir);
    } catch (err) {
      if (attempt >= attempts) throw err;
    }
  }
}

async function startOnce(bin: string, dir: string, timeoutMs = 60_000): Promise<TemporalCli> {
  const [port, httpPort] = [await freePort(), await freePort()];
  const args = ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--http-port', String(httpPort),
    '--metrics-port', '0', '--db-filename', path.join(dir, 'temporal-cli.db'), '--log-level', 'warn'];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const address = `127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${bin} server start-dev did not start on ${address}:\n${out.slice(-4000)}`);
    }
    const ready = await Connection.connect({ address, connectTimeout: 2_000 })
      .then(async (c) => {
        await c.workflowService.describeNamespace({ namespace: 'default' }).finally(() => c.close());
        return true;
      })
      .catch(() => false);
    if (ready) return { address, child, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
}

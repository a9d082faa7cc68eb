// README's quick start works when pasted: its shell blocks run as they are, in order, against the
// running service (with a fresh organisation's key instead of .data/credentials.json), and the
// registration at the end reaches the receiver with a valid signature.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/service-process';
import { testState } from '../support/state';
import { createTenant } from '../support/tenants';

const run = promisify(execFile);

/** The ```sh blocks of README's "Quick start" section, in order. */
function quickStart(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quick start');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

test('README quick start, pasted into bash: every step answers 2xx and the webhook arrives signed', async () => {
  const script = quickStart();
  expect(script).toContain('/journals');
  const tenant = await createTenant('Quick start');
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'quick-start-'));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BASE: testState().url,
      CA: path.join(testState().dataDir, 'tls', 'cert.pem'),
      KEY: tenant.secretKey,
      RECEIVER_PORT: String(await freePort()),
    };
    // -e: any failing curl (--fail-with-body) stops the walk and fails the test.
    const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env, timeout: 90_000 }).catch((err) => {
      throw new Error(`the quick start stopped (exit ${err.code}):\n${err.stdout}\n${err.stderr}`);
    });
    const received = stdout.split('\n').filter((line) => /^(VALID|INVALID) /.test(line));
    expect(received.length).toBeGreaterThanOrEqual(1);
    for (const line of received) expect(line.startsWith('VALID ')).toBe(true);
    const event = JSON.parse(received[0].slice('VALID '.length));
    expect(event).toMatchObject({ type: 'REGISTER_CONTACT' });
    expect(stdout).toMatch(/CREDIT 50/);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}, 120_000);

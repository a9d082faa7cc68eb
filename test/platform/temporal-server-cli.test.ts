// TEMPORAL_SERVER=cli (docs/temporal.md "TEMPORAL_SERVER=cli"): the service starts Temporal's own
// development server in its data directory instead of the embedded one, runs its workflows on
// it, shows the dev server's UI in its start-up log, and stops it on SIGTERM. A service killed
// with SIGKILL cannot stop its child: the next start on the directory stops that orphan first.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { loadConfig } from '../../src/config';
import { eventually } from '../communications/helpers';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';

const bin = process.env.TEMPORAL_CLI;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-temporal-server-cli-'));
const dbFile = path.join(dataDir, 'temporal-cli.db');
let service: ServiceProcess | undefined;
// On PostgreSQL a database of its own: the shared service's dispatcher would perform its intents.
const own = ownDatabase('temporal_server_cli');

beforeAll(() => own.create());

afterAll(async () => {
  await service?.stop('SIGKILL');
  // A failed test must not leave a dev server behind.
  for (const pid of devServersOf(dbFile)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

/** Pids of the running processes whose command line names the state file: the dev servers on it. */
function devServersOf(file: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      return argv.includes('start-dev') && argv.includes(file) ? [Number(d)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

function start(): Promise<ServiceProcess> {
  const env = serviceEnv(dataDir, { ...own.env, TEMPORAL_SERVER: 'cli', TEMPORAL_CLI: bin!, TEMPORAL_UI_PORT: '0' });
  // Not the suite's shared server: this service starts its own.
  delete env.TEMPORAL_ADDRESS;
  return startServiceProcess(env);
}

async function workflowStatus(address: string, workflowId: string): Promise<string | null | undefined> {
  const connection = await Connection.connect({ address });
  try {
    const { workflowExecutionInfo } = await connection.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId } });
    return workflowExecutionInfo?.status === 2 ? 'COMPLETED' : String(workflowExecutionInfo?.status);
  } finally {
    await connection.close();
  }
}

test('TEMPORAL_SERVER: embedded by default; cli only where the service starts the server itself', () => {
  expect([loadConfig({}).TEMPORAL_SERVER, loadConfig({}).TEMPORAL_CLI]).toEqual(['embedded', 'temporal']);
  expect(loadConfig({ TEMPORAL_SERVER: 'cli', TEMPORAL_CLI: '/opt/temporal' })).toMatchObject({ TEMPORAL_SERVER: 'cli', TEMPORAL_CLI: '/opt/temporal' });
  expect(() => loadConfig({ TEMPORAL_SERVER: 'cli', TEMPORAL_ADDRESS: 'temporal.internal:7233' })).toThrow(/TEMPORAL_SERVER=cli .*unset TEMPORAL_ADDRESS/);
  expect(() => loadConfig({ TEMPORAL_SERVER: 'docker' })).toThrow(/^Invalid configuration: TEMPORAL_SERVER /);
});

test('a TEMPORAL_CLI that cannot be run stops the start with one message naming it', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-temporal-server-cli-missing-'));
  try {
    const env = serviceEnv(dir, { TEMPORAL_SERVER: 'cli', TEMPORAL_CLI: path.join(dir, 'no-such-temporal') });
    delete env.TEMPORAL_ADDRESS;
    await expect(startServiceProcess(env)).rejects.toThrow(/exited with 1 [^]*Start-up failed: \S+no-such-temporal server start-dev could not be run \(spawn \S+ ENOENT\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

if (!bin) {
  console.log('test/platform/temporal-server-cli.test.ts: not run, TEMPORAL_CLI (a temporal binary) is unset (docs/temporal.md)');
  describe.skip('TEMPORAL_SERVER=cli with a real binary (needs TEMPORAL_CLI)', () => test('not run', () => undefined));
} else {
  test('the service runs its workflows on the dev server it starts, shows its UI, and stops it', async () => {
    service = await start();
    // Printed right after the API's lines.
    const ui = await eventually(async () => /Temporal UI: (http:\/\/127\.0\.0\.1:\d+) \(temporal server start-dev\)/.exec(service!.output())?.[1], 5_000, 'the UI line');
    expect((await fetch(ui)).status).toBe(200);
    const [first] = devServersOf(dbFile);
    expect(devServersOf(dbFile)).toEqual([first]);
    // Its state is the CLI's file in the data directory; the embedded server never started.
    expect([existsSync(dbFile), existsSync(path.join(dataDir, 'temporal'))]).toEqual([true, false]);

    // A termination is a workflow the request starts and waits for: 200 means it completed.
    const { secretKey: key } = await createTenant('temporal server cli', dataDir, own.url);
    const call = (method: string, route: string, body?: object) => api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), key, body });
    const account = async (code: string) => {
      const created = await call('POST', '/contacts', { contact_type: 'PERSON', code, first_name: 'Cli', last_name: code, accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
      expect(created.status).toBe(200);
      return (await call('GET', `/contacts?code=${code}&financials=true`)).body.contacts[0].financials.account.id as string;
    };
    const [source, target] = [await account('CLI-SRC'), await account('CLI-DST')];
    const terminated = await call('POST', `/accounts/${source}/life_cycle_state`, { life_cycle_state: 'TERMINATED', transfer_to_account_id: target });
    expect(terminated.status).toBe(200);
    expect(await workflowStatus(service.temporalAddress, `account-termination:${source}`)).toBe('COMPLETED');

    // Killed, the service leaves the dev server running; the next start stops it and starts its
    // own on the same file, which still has the workflow.
    await service.stop('SIGKILL');
    expect(devServersOf(dbFile)).toEqual([first]);
    service = await start();
    const [second] = devServersOf(dbFile);
    expect(devServersOf(dbFile)).toEqual([second]);
    expect(second).not.toBe(first);
    expect(await workflowStatus(service.temporalAddress, `account-termination:${source}`)).toBe('COMPLETED');

    expect(await service.stop('SIGTERM')).toBe(0);
    expect(devServersOf(dbFile)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'temporal-cli.pid'))).toBe(false);
  }, 120_000);
}

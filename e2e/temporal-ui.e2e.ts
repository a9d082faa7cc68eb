import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Browser, Page } from 'playwright-core';
import { startTemporalServer, startTemporalUi, type TemporalServer, type TemporalUi } from '@backoffice/temporal-server';
import { registerSearchAttributes, searchAttributes } from '../src/temporal/search-attributes';
import { createLogger } from '../src/log';
import { launchChromium } from './browser';

/**
 * The Temporal Web UI (temporal/server/ui, served by its ui-server.ts) in headless Chromium against
 * an embedded Temporal server with a worker: an operator finds, filters, reads and terminates
 * workflows. The first run builds the UI (cached in .data/temporal-ui, like `npm start`'s).
 */
const ROOT = path.resolve(__dirname, '..');
/** The server's door (docs/security.md "The engine's door"): the UI signs in with it and passes it on. */
const API_KEY = 'e2e-temporal-ui-key-0123456789abcdef';
const ARTIFACTS = path.join(__dirname, 'artifacts');
const TASK_QUEUE = 'e2e-ui';
const BUILD_TIMEOUT_MS = 20 * 60_000;

describe('Temporal UI in a browser', () => {
  let server: TemporalServer;
  let ui: TemporalUi;
  let client: Client;
  let worker: Worker;
  let working: Promise<void>;
  let browser: Browser;
  let page: Page;
  const hosts = new Set<string>();
  const failedCalls: string[] = [];

  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger('ERROR') });
    } catch {
      /* installed by another file in this process */
    }
    server = await startTemporalServer({ port: 0, httpPort: 0, apiKey: API_KEY });
    ui = await startTemporalUi({
      host: '127.0.0.1', port: 0, apiAddress: server.httpAddress!, apiKey: API_KEY, cacheDir: path.join(ROOT, '.data/temporal-ui'),
      log: (level, msg, fields) => process.stderr.write(`temporal-ui ${level}: ${msg} ${JSON.stringify(fields ?? {})}\n`),
    });
    const connection = await Connection.connect({ address: server.address, apiKey: API_KEY, tls: false });
    // As the service does at start: a Temporal server knows no custom attribute until registered.
    await registerSearchAttributes(connection, 'default', createLogger('warn'));
    client = new Client({ connection });
    worker = await Worker.create({
      connection: await NativeConnection.connect({ address: server.address, apiKey: API_KEY, tls: false }),
      taskQueue: TASK_QUEUE,
      workflowsPath: require.resolve('./temporal-ui-workflows'),
      activities: { greet: async (name: string) => `Hello, ${name}` },
    });
    working = worker.run();

    // What an operator looks for: two runs about one account, one about another.
    const about = (accountId: string) => searchAttributes({ organisationId: 'org-e2e', entityType: 'ACCOUNTS', entityId: accountId });
    await client.workflow.execute('greetWorkflow', { workflowId: 'e2e-completed', taskQueue: TASK_QUEUE, args: ['operator'], typedSearchAttributes: about('acc-1') });
    await expect(
      client.workflow.execute('failingWorkflow', { workflowId: 'e2e-failed', taskQueue: TASK_QUEUE, args: ['no such account'], typedSearchAttributes: about('acc-2') }),
    ).rejects.toBeInstanceOf(WorkflowFailedError);
    const waiting = await client.workflow.start('waitingWorkflow', { workflowId: 'e2e-running', taskQueue: TASK_QUEUE, typedSearchAttributes: about('acc-1') });
    await client.workflow.execute('parentWorkflow', { workflowId: 'e2e-parent', taskQueue: TASK_QUEUE, args: ['child'] });
    // The timer is in history once the first workflow task completed.
    for (let i = 0; i < 100 && !(await waiting.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes); i++) await sleep(100);

    await ui.ready;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('request', (req) => hosts.add(new URL(req.url()).hostname));
    page.on('response', (res) => {
      if (res.status() >= 400 && new URL(res.url()).pathname.startsWith('/api/')) failedCalls.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    worker?.shutdown();
    await working;
    await client?.connection.close();
    await ui?.close();
    await server?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `temporal-ui-${name}.png`), fullPage: true });
  const workflowLink = (id: string) => page.getByRole('link', { name: id, exact: true });
  /**
   * The Relationships tab's family tree (rootExecution, then `RootWorkflowId = ...` and each run's
   * parentExecution): the root's row with the column labels and its child count, the child's row
   * under it. Without them the tab falls back to the table of children from history.
   */
  const expectFamilyTree = async () => {
    await page.getByText('Child Count', { exact: true }).waitFor();
    await page.getByText('Expand All', { exact: true }).waitFor();
    for (const [type, id, children] of [['parentWorkflow', 'e2e-parent', '1'], ['greetWorkflow', 'e2e-parent-child', '0']]) {
      // Each row is a <button>: status, type, id (a link), child count, times.
      const row = page.locator('button').filter({ hasText: type }).filter({ has: page.getByText(id, { exact: true }) });
      await expect(row.locator('span.font-mono').textContent()).resolves.toBe(children);
    }
    await expect(page.getByText('Child Workflow ID', { exact: true }).count()).resolves.toBe(0);
  };

  it('lets in only a browser signed in with the key, then lists the workflows with their states', async () => {
    await page.goto(ui.url);
    await page.getByRole('heading', { name: 'Sign in to the Temporal UI' }).waitFor();
    await page.getByLabel('Key').fill('not the key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not the key' }).waitFor();
    await page.getByLabel('Key').fill(API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/namespaces/default/workflows');
    for (const id of ['e2e-completed', 'e2e-failed', 'e2e-running', 'e2e-parent', 'e2e-parent-child']) await workflowLink(id).waitFor();
    // The counts come from CountWorkflowExecutions GROUP BY ExecutionStatus.
    await page.getByRole('button', { name: '1 Running' }).waitFor();
    await page.getByRole('button', { name: '3 Completed' }).waitFor();
    await page.getByRole('button', { name: '1 Failed' }).waitFor();
    await shot('list');
  });

  it('filters the list with a query, as an operator finds everything about one account', async () => {
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('View Raw Query').click();
    await page.locator('#manual-search').fill('EntityType = "ACCOUNTS" AND EntityId = "acc-1"');
    await page.getByTestId('manual-search-button').click();
    await page.waitForURL(/query=/);
    await workflowLink('e2e-completed').waitFor();
    await workflowLink('e2e-running').waitFor();
    await workflowLink('e2e-failed').waitFor({ state: 'detached' });
    await expect(workflowLink('e2e-parent').count()).resolves.toBe(0);
    await shot('filtered');
  });

  it('opens a workflow: input, result and history events', async () => {
    await workflowLink('e2e-completed').click();
    await page.waitForURL('**/workflows/e2e-completed/*/history');
    await page.getByText('"operator"').first().waitFor();
    await page.getByText('"Hello, operator"').first().waitFor();
    for (const event of ['Workflow Execution Started', 'Activity Task Completed', 'Workflow Execution Completed']) {
      await page.getByText(event, { exact: true }).first().waitFor();
    }
    await shot('completed');
  });

  it('shows a failure and a parent with its child', async () => {
    await page.goto(`${ui.url}/namespaces/default/workflows/e2e-failed`);
    await page.getByText('Workflow Execution Failed', { exact: true }).first().waitFor();
    await page.getByText('no such account').first().waitFor();
    await shot('failed');
    await page.goto(`${ui.url}/namespaces/default/workflows/e2e-parent`);
    await page.getByText('Child Workflow Execution Completed', { exact: true }).first().waitFor();
    await page.getByRole('tab', { name: /^Relationships/ }).click();
    await page.waitForURL('**/workflows/e2e-parent/*/relationships');
    await expectFamilyTree();
    await shot('parent');
  });

  it("draws the family tree from the root down, also on the child's page", async () => {
    await page.goto(`${ui.url}/namespaces/default/workflows/e2e-parent-child`);
    await page.getByRole('tab', { name: /^Relationships/ }).click();
    await page.waitForURL('**/workflows/e2e-parent-child/*/relationships');
    await expectFamilyTree();
    await shot('child-relationships');
  });

  it('terminates a running workflow', async () => {
    await page.goto(`${ui.url}/namespaces/default/workflows/e2e-running`);
    await page.getByText('Timer Started', { exact: true }).first().waitFor();
    // The header is there twice (one sticks when scrolled); the roles find the visible one.
    await page.getByRole('button', { name: 'Workflow Actions' }).click();
    await page.getByRole('menuitem', { name: 'Terminate' }).click();
    await page.getByRole('textbox', { name: 'Enter a reason' }).fill('closed by the e2e test');
    await page.getByRole('button', { name: 'Terminate', exact: true }).click();
    await page.getByText('Workflow terminated.').waitFor();
    const described = await client.workflow.getHandle('e2e-running').describe();
    expect(described.status.name).toBe('TERMINATED');
    await page.getByText('Workflow Execution Terminated', { exact: true }).first().waitFor();
    await shot('terminated');
  });

  it("lists the schedules, opens one with its upcoming and recent runs, and pauses it", async () => {
    const schedule = await client.schedule.create({
      scheduleId: 'e2e-schedule',
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'greetWorkflow', args: ['schedule'], taskQueue: TASK_QUEUE, workflowId: 'e2e-scheduled' },
    });
    await schedule.trigger();
    for (let i = 0; i < 100 && !(await schedule.describe()).info.recentActions.length; i++) await sleep(100);
    await page.goto(`${ui.url}/namespaces/default/schedules`);
    await page.getByText('1 Schedule', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'e2e-schedule', exact: true }).click();
    await page.waitForURL('**/schedules/e2e-schedule');
    await page.getByText('Upcoming Runs', { exact: true }).waitFor();
    await page.getByRole('link', { name: /^e2e-scheduled-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ }).waitFor();
    await shot('schedule');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('textbox').last().fill('paused by the e2e test');
    await page.locator('dialog[open]').getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Unpause', exact: true }).waitFor();
    expect((await schedule.describe()).state).toMatchObject({ paused: true, note: 'paused by the e2e test' });
  });

  it('talked to no host but the UI server, and every API call it made was answered', () => {
    expect([...hosts]).toEqual(['127.0.0.1']);
    expect(failedCalls).toEqual([]);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

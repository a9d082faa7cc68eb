// The alerting rules and the dashboard in ops/ (docs/operations.md "Alerts", "Dashboard"):
// `promtool check rules` and `promtool test rules` (Debian's prometheus ships promtool) on
// ops/prometheus/alerts.yml and its unit tests; every dashboard query parses as PromQL (checked by
// promtool as recording rules); and every metric either names is one docs/operations.md lists.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/service-process';

const run = promisify(execFile);
const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));
if (!PROMTOOL) process.stdout.write('skipping the promtool checks of test/platform/alert-rules.test.ts: no promtool binary (Debian: apt-get install prometheus; .ci/run installs it)\n');
const withPromtool = PROMTOOL ? test : test.skip;

const ALERTS = path.join(ROOT, 'ops/prometheus/alerts.yml');
const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'ops/grafana/backoffice.json'), 'utf8')) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'backoffice-promtool-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

withPromtool('promtool checks the alerting rules and runs their unit tests', async () => {
  const checked = await run(PROMTOOL!, ['check', 'rules', ALERTS]);
  expect(checked.stdout).toMatch(/SUCCESS: 4 rules found/);
  const tested = await run(PROMTOOL!, ['test', 'rules', path.join(ROOT, 'ops/prometheus/alerts.test.yml')]);
  expect(tested.stdout).toMatch(/SUCCESS/);
});

withPromtool('every dashboard query is PromQL promtool accepts', async () => {
  // Grafana's variables as Prometheus would see them once Grafana has put them in.
  const concrete = (expr: string) => expr.replace(/\$__rate_interval/g, '5m').replace(/\$__range/g, '1h').replace(/\$(job|temporal_job)/g, '.+');
  const rules = ['groups:', '  - name: dashboard', '    rules:', ...dashboardExprs.map((e, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(concrete(e.expr))}`)].join('\n');
  const file = path.join(tmp, 'dashboard-rules.yml');
  writeFileSync(file, rules + '\n');
  const checked = await run(PROMTOOL!, ['check', 'rules', file]);
  expect(checked.stdout).toContain(`SUCCESS: ${dashboardExprs.length} rules found`);
});

test('the metrics the alerts and the dashboard read are the ones docs/operations.md lists', () => {
  const docs = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
  const names = (text: string) => [...text.matchAll(/(?<![$\w])((?:http_server|backoffice|db_client|nodejs_eventloop|temporal)_[a-z_]+)/g)].map((m) => m[1]);
  const series = (name: string) => name.replace(/_(bucket|count|sum|total)$/, '');
  const used = new Set([...names(readFileSync(ALERTS, 'utf8')), ...dashboardExprs.flatMap((e) => names(e.expr))].map(series));
  expect(dashboardExprs.length).toBeGreaterThan(15);
  expect([...used].filter((n) => !docs.includes(`\`${n}`))).toEqual([]);
});

// POST /reports/{id} end to end (spec 4.9; docs/reports.md "Run", "Recipient", "Files"): CSV and
// PDF files mailed through the organisation's SMTP integration to a real SMTP server, parsed
// back; run states; the 409 without a recipient; tenancy and scopes.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ParsedMail } from 'mailparser';
import { api } from '../support/api';
import { testState } from '../support/state';
import { adminCli, createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith } from '../money/helpers';
import { eventually, startRefusingSmtp, startSmtpSink } from '../communications/helpers';
import { purchase, purchaseBody } from '../loyalty/purchases/setup';
import { parseCsv } from './csv';

const run = promisify(execFile);

let a: Tenant;
let b: Tenant;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let token: string;
const tag = `${process.pid}-${Date.now().toString(36)}`;
const ROWS = 300;
const code = (n: number) => `RR-${tag}-${String(n).padStart(3, '0')}`;
/** Every 50th contact's last name needs CSV quoting. */
const lastName = (n: number) => (n % 50 === 0 ? `O"Neil, Jr.` : `Last${n}`);
const email = (t: Tenant) => `reports-${t.organisationId.slice(0, 8)}@shop.test`;

async function adminUserId(t: Tenant): Promise<string> {
  const res = await api('GET', `/users?username=${encodeURIComponent(t.admin.username)}`, { key: t.secretKey });
  expect(res.body.content).toHaveLength(1);
  return res.body.content[0].id;
}

async function loginAs(username: string, password: string): Promise<string> {
  const res = await api('POST', '/users/login', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

/** The tenant's admin gets an e-mail address; the tenant mails through an SMTP integration to `port`. */
async function mailable(t: Tenant, port: number): Promise<string> {
  expect((await api('PUT', `/users/${await adminUserId(t)}`, { key: t.secretKey, body: { email: email(t) } })).status).toBe(200);
  await createId(t.secretKey, '/integrations', {
    name: 'Reports SMTP', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port, secure: false, from_address: 'reports@shop.test' },
  });
  return loginAs(t.admin.username, t.admin.password);
}

async function settledRun(key: { token?: string; key?: string }, report: string, id: string) {
  return eventually(async () => {
    const res = await api('GET', `/reports/${report}/runs/${id}`, key);
    expect(res.status).toBe(200);
    return ['SENT', 'FAILED'].includes(res.body.state) ? res.body : undefined;
  }, 60_000, `run ${id} to settle`);
}

const mailOf = (runId: string) => eventually(async () => sink.mails.find((m) => m.messageId === `<report-${runId}@backoffice>`), 60_000, `the mail of run ${runId}`);


function attachment(mail: ParsedMail) {
  expect(mail.attachments).toHaveLength(1);
  return mail.attachments[0];
}

async function pdfText(content: Buffer): Promise<{ pages: number; text: string }> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'report-pdf-')), 'report.pdf');
  writeFileSync(file, content);
  const { stdout } = await run(process.execPath, [path.join(__dirname, 'pdf-text.mjs'), file]);
  return JSON.parse(stdout);
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Reports runs A'), createTenant('Reports runs B')]);
  sink = await startSmtpSink();
  token = await mailable(a, sink.port);
  let next = 0;
  const worker = async () => {
    while (next < ROWS) {
      const n = next++;
      await createId(a.secretKey, '/contacts', { contact_type: 'PERSON', code: code(n), first_name: `First${n}`, last_name: lastName(n), email_address: `c${n}@shop.test` });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}, 120_000);
afterAll(async () => sink?.close());

test('a CSV report of 300 contacts, run by a user, reaches their inbox; the run ends SENT with its counts', async () => {
  const res = await api('POST', '/reports/contacts', {
    token,
    body: {
      format: 'csv',
      filters_set: [{ label: 'Ours', key: 'code', value: `RR-${tag}`, type: 'TEXT' }],
      columns_set: [
        { order: 1, key: 'code', label: 'Code' },
        { order: 2, key: 'first_name,last_name', label: 'Name', type: 'text,text' },
        { order: 3, key: 'email_address' },
        { order: 4, key: 'email_opt_out', type: 'BOOLEAN' },
      ],
    },
  });
  expect(res.status).toBe(200);
  const runId = res.body.id;
  const mail = await mailOf(runId);
  expect(mail.subject).toBe(`Report Contacts (${ROWS} rows)`);
  expect(mail.to && !Array.isArray(mail.to) && mail.to.text).toBe(email(a));
  expect(mail.from?.text).toContain('reports@shop.test');
  const file = attachment(mail);
  expect(file.contentType).toBe('text/csv');
  expect(file.filename).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = file.content.toString('utf8');
  expect(text.startsWith('\uFEFFCode,Name,E-mail address,E-mail opt-out\r\n')).toBe(true);
  const [header, ...rows] = parseCsv(text.slice(1));
  expect(header).toEqual(['Code', 'Name', 'E-mail address', 'E-mail opt-out']);
  const expected = Array.from({ length: ROWS }, (_, n) => [code(n), `First${n} ${lastName(n)}`, `c${n}@shop.test`, 'false']);
  expect([...rows].sort((x, y) => x[0].localeCompare(y[0]))).toEqual(expected);
  expect(text).toContain(`,"First0 O""Neil, Jr.",`);

  const done = await settledRun({ token }, 'contacts', runId);
  expect(done).toEqual({
    id: runId, report: 'contacts', format: 'CSV', state: 'SENT', recipient: email(a), row_count: ROWS, byte_count: file.size, error: null,
    created_on: expect.any(Number), completed_on: expect.any(Number),
  });
  // The file is gone once mailed.
  expect(existsSync(path.join(testState().dataDir, 'reports', `${runId}.csv`))).toBe(false);
  const list = await api('GET', '/reports/contacts/runs', { token });
  expect(list.body.content[0]).toEqual(done);
});

test('a PDF report: a table over several pages, its header on each, the title naming report and filters', async () => {
  // An API key a user created mails to that user.
  const created = await api('POST', '/api_keys', { token, body: { name: 'Reports by Ada', scopes: ['reports'] } });
  expect(created.status).toBe(200);
  const res = await api('POST', '/reports/contacts', {
    key: created.body.key,
    body: { format: 'PDF', filters_set: [{ key: 'code', value: `RR-${tag}` }], columns_set: [{ key: 'code' }, { key: 'name' }, { key: 'email_address' }, { key: 'created_on' }, { key: 'is_anonymized' }] },
  });
  expect(res.status).toBe(200);
  const mail = await mailOf(res.body.id);
  expect(mail.to && !Array.isArray(mail.to) && mail.to.text).toBe(email(a));
  const file = attachment(mail);
  expect(file.contentType).toBe('application/pdf');
  const { pages, text } = await pdfText(file.content);
  expect(pages).toBeGreaterThan(1);
  expect(text).toContain('Report: Contacts');
  expect(text).toContain(`Filters: Code: RR-${tag}`);
  expect(text.split('E-mail address').length - 1).toBe(pages);
  for (const n of [0, 1, 150, ROWS - 1]) expect(text).toContain(code(n));
  expect(text).toContain('First7 Last7');
  expect(text).toContain(`${ROWS} records`);
  expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  expect(await settledRun({ token }, 'contacts', res.body.id)).toMatchObject({ state: 'SENT', format: 'PDF', row_count: ROWS, byte_count: file.size });
});

test('amounts leave as exact decimal text; a grouped run sums them', async () => {
  const contactId = await createId(a.secretKey, '/contacts', { contact_type: 'PERSON', code: `RR-${tag}-buyer`, first_name: 'Bea', last_name: 'Buyer', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
  for (const total of [10.1, 0.05, 1234.5]) expect((await purchase(a.secretKey, purchaseBody(contactId, total))).status).toBe(200);
  const columns_set = [{ key: 'contact_code' }, { key: 'total_amount' }];
  const filters_set = [{ key: 'contact_code', value: `=RR-${tag}-buyer` }];
  const plain = await api('POST', '/reports/purchases', { token, body: { columns_set, filters_set } });
  const grouped = await api('POST', '/reports/purchases', { token, body: { columns_set, filters_set, group_by_set: [{ key: 'contact_code' }] } });
  const csv = async (id: string) => parseCsv(attachment(await mailOf(id)).content.toString('utf8').slice(1));
  expect(await csv(plain.body.id)).toEqual([['Contact code', 'Total amount'], ...['10.1', '0.05', '1234.5'].map((t) => [`RR-${tag}-buyer`, t])]);
  expect(await csv(grouped.body.id)).toEqual([['Contact code', 'Total amount', 'Count'], [`RR-${tag}-buyer`, '1244.65', '3']]);
});

test('nobody to mail it to: 409 saying how to set an address, and nothing written; a bad body is 400 first', async () => {
  const before = (await api('GET', '/reports/contacts/runs', { key: a.secretKey })).body.paging.total;
  // The tenant's own key was made by the admin command line, not by a user.
  const viaCliKey = await api('POST', '/reports/contacts', { key: a.secretKey, body: {} });
  expectError(viaCliKey, 409, 'REPORT_RECIPIENT_MISSING');
  expect(viaCliKey.body.message).toMatch(/PUT \/users\/\{id\}/);
  const plain = JSON.parse(await adminCli(['create-user', '--organisation', a.organisationId, '--username', `plain-${tag}`])) as { password: string };
  const noMail = await loginAs(`plain-${tag}`, plain.password);
  const viaUser = await api('POST', '/reports/contacts', { token: noMail, body: { format: 'PDF' } });
  expectError(viaUser, 409, 'REPORT_RECIPIENT_MISSING');
  expect(viaUser.body.message).toMatch(/Your user has no e-mail address/);
  expectError(await api('POST', '/reports/contacts', { token, body: { columns_set: [{ key: 'nope' }] } }), 400, 'INVALID_REQUEST', 'columns_set.0.key');
  expectError(await api('POST', '/reports/contacts', { token, body: { format: 'XLS' } }), 400, 'INVALID_REQUEST', 'format');
  expectError(await api('POST', '/reports/nope', { token, body: {} }), 404, 'NOT_FOUND');
  expect((await api('GET', '/reports/contacts/runs', { key: a.secretKey })).body.paging.total).toBe(before);
});

test('a mail server refusing the recipient for good: the run ends FAILED with the reason', async () => {
  const refusing = await startRefusingSmtp(550, 'No such mailbox');
  try {
    const c = await createTenant('Reports runs refused');
    const cToken = await mailable(c, refusing.port);
    const res = await api('POST', '/reports/contacts', { token: cToken, body: {} });
    expect(res.status).toBe(200);
    const failed = await settledRun({ token: cToken }, 'contacts', res.body.id);
    expect(failed).toMatchObject({ state: 'FAILED', row_count: null, completed_on: expect.any(Number) });
    expect(failed.error).toMatch(/SMTP 550/);
  } finally {
    await refusing.close();
  }
});

test("another organisation's run, or a run asked for under another report, is 404", async () => {
  const res = await api('POST', '/reports/webhook_requests', { token, body: {} });
  expect(res.status).toBe(200);
  const id = res.body.id;
  expect((await settledRun({ token }, 'webhook_requests', id)).state).toBe('SENT');
  expect((await mailOf(id)).subject).toBe('Report Webhook requests (0 rows)');
  expectError(await api('GET', `/reports/webhook_requests/runs/${id}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/reports/contacts/runs/${id}`, { token }), 404, 'NOT_FOUND');
  expect((await api('GET', '/reports/webhook_requests/runs', { key: b.secretKey })).body.content).toEqual([]);
});

test('401 without a credential; 403 for a key without reports:write', async () => {
  expectError(await api('POST', '/reports/contacts', { body: {} }), 401, 'INVALID_CREDENTIAL');
  const contactsOnly = await keyWith(a.secretKey, ['contacts']);
  expectError(await api('POST', '/reports/contacts', { key: contactsOnly, body: {} }), 403, 'FORBIDDEN');
  expectError(await api('GET', '/reports/contacts/runs', { key: contactsOnly }), 403, 'FORBIDDEN');
  const reader = await keyWith(a.secretKey, ['reports:read']);
  expectError(await api('POST', '/reports/contacts', { key: reader, body: {} }), 403, 'FORBIDDEN');
  expect((await api('GET', '/reports/contacts/runs', { key: reader })).status).toBe(200);
});

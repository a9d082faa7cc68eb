import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { api } from '../support/api';

/** A contact of the tenant, with an e-mail and a phone unless overridden. */
export async function createContact(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/contacts', { key, body: { contact_type: 'PERSON', last_name: 'Test', ...body } });
  if (res.status !== 200) throw new Error(`POST /contacts: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Polls the communication until it leaves PENDING (or the time is up). */
export async function settled(key: string, id: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api('GET', `/communications/${id}`, { key });
    expect(res.status).toBe(200);
    if (res.body.life_cycle_state !== 'PENDING' || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The path of a tracking URL below the API base (`/t/...`), whatever host it names. */
export function trackingPath(url: string): string {
  const u = new URL(url.replace(/&amp;/g, '&'));
  return u.pathname.replace(/^.*?(\/t\/)/, '/t/') + u.search;
}

/** A real SMTP server on 127.0.0.1 that parses and keeps every message it accepts. */
export async function startSmtpSink(): Promise<{ port: number; mails: ParsedMail[]; close(): Promise<void> }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((m) => {
        mails.push(m);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A real SMTP server on 127.0.0.1 that refuses every recipient for good (`code`, e.g. 550), as a relay that will not take the mail. */
export async function startRefusingSmtp(code: number, message: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error(message), { responseCode: code }));
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Polls `probe` until it answers something truthy, or fails the test after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, what = 'the condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

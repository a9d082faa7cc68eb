import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createMailer, outboxDir } from '../../src/mail';

/**
 * Mail without SMTP_URL lands as .eml files in DATA_DIR/outbox; with SMTP_URL it goes to the
 * SMTP server (here a minimal one on a local socket).
 */
describe('mail', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-mail-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('outbox (no SMTP_URL)', () => {
    it('writes each message as a readable .eml file named after its Message-ID', async () => {
      const mailer = createMailer({ dataDir, MAIL_FROM: 'backoffice@test.local', SMTP_URL: undefined });
      const { messageId } = await mailer.send({
        to: 'alice@example.com',
        subject: 'Monthly report',
        text: 'Your report is attached.',
        html: '<p>Your report is attached.</p>',
        attachments: [{ filename: 'report.csv', content: 'id,amount\n1,10.00\n', contentType: 'text/csv' }],
        messageId: 'report-42@backoffice.test',
      });
      mailer.close();

      expect(messageId).toBe('<report-42@backoffice.test>');
      expect(readdirSync(outboxDir({ dataDir }))).toEqual(['report-42@backoffice.test.eml']);
      const eml = readFileSync(path.join(outboxDir({ dataDir }), 'report-42@backoffice.test.eml'), 'utf8');
      expect(eml).toMatch(/^From: backoffice@test\.local\r$/m);
      expect(eml).toMatch(/^To: alice@example\.com\r$/m);
      expect(eml).toMatch(/^Subject: Monthly report\r$/m);
      expect(eml).toMatch(/^Message-ID: <report-42@backoffice\.test>\r$/m);
      expect(eml).toContain('Your report is attached.');
      expect(eml).toMatch(/^Content-Disposition: attachment; filename=report\.csv\r$/m);
    });

    it('keeps one file when the same Message-ID is sent twice (an activity retry)', async () => {
      const mailer = createMailer({ dataDir, MAIL_FROM: 'backoffice@test.local', SMTP_URL: undefined });
      const message = { to: 'bob@example.com', subject: 'Welcome', messageId: '<welcome-7@backoffice.test>' };
      await mailer.send({ ...message, text: 'first attempt' });
      await mailer.send({ ...message, text: 'second attempt' });
      mailer.close();

      const files = readdirSync(outboxDir({ dataDir }));
      expect(files).toEqual(['welcome-7@backoffice.test.eml']);
      const eml = readFileSync(path.join(outboxDir({ dataDir }), files[0]), 'utf8');
      expect(eml).toContain('second attempt');
      expect(eml).not.toContain('first attempt');
    });

    it('gives messages without a Message-ID files of their own', async () => {
      const mailer = createMailer({ dataDir, MAIL_FROM: 'backoffice@test.local', SMTP_URL: undefined });
      const a = await mailer.send({ to: 'carol@example.com', subject: 'One', text: '1' });
      const b = await mailer.send({ to: 'carol@example.com', subject: 'Two', text: '2' });
      mailer.close();

      expect(a.messageId).not.toBe(b.messageId);
      expect(readdirSync(outboxDir({ dataDir })).sort()).toEqual(
        [a.messageId, b.messageId].map((id) => `${id.slice(1, -1)}.eml`).sort(),
      );
    });
  });

  describe('SMTP (SMTP_URL set)', () => {
    let sink: SmtpSink;
    beforeEach(async () => {
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      await sink.close();
    });

    it('delivers the message to the SMTP server and writes no outbox file', async () => {
      const mailer = createMailer({ dataDir, MAIL_FROM: 'backoffice@test.local', SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
      const { messageId } = await mailer.send({
        to: ['dave@example.com', 'erin@example.com'],
        subject: 'Delivered over SMTP',
        text: 'Hello over the wire.\n.A line starting with a dot.',
        messageId: 'smtp-1@backoffice.test',
      });
      mailer.close();

      expect(messageId).toBe('<smtp-1@backoffice.test>');
      expect(sink.messages).toHaveLength(1);
      const [received] = sink.messages;
      expect(received.from).toBe('backoffice@test.local');
      expect(received.to).toEqual(['dave@example.com', 'erin@example.com']);
      expect(received.data).toMatch(/^Subject: Delivered over SMTP\r$/m);
      expect(received.data).toMatch(/^Message-ID: <smtp-1@backoffice\.test>\r$/m);
      expect(received.data).toContain('\r\n.A line starting with a dot.');
      expect(readdirSync(dataDir)).toEqual([]);
    });
  });
});

interface SmtpSink {
  port: number;
  messages: Array<{ from: string; to: string[]; data: string }>;
  close(): Promise<void>;
}

/** Just enough SMTP (RFC 5321) to accept messages: no TLS, no authentication. */
async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('latin1');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let envelope = { from: '', to: [] as string[] };
    let inData = false;
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          // Undo dot-stuffing: the client doubled every leading dot.
          messages.push({ ...envelope, data: buffer.slice(0, end + 2).replace(/^\.\./gm, '.') });
          buffer = buffer.slice(end + 5);
          envelope = { from: '', to: [] };
          inData = false;
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(' ')[0].toUpperCase();
        const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
        switch (verb) {
          case 'EHLO':
          case 'HELO':
            reply('250 sink.test');
            break;
          case 'MAIL':
            envelope.from = address;
            reply('250 2.1.0 ok');
            break;
          case 'RCPT':
            envelope.to.push(address);
            reply('250 2.1.5 ok');
            break;
          case 'DATA':
            inData = true;
            reply('354 end with <CRLF>.<CRLF>');
            break;
          case 'RSET':
            envelope = { from: '', to: [] };
            reply('250 2.0.0 ok');
            break;
          case 'NOOP':
            reply('250 2.0.0 ok');
            break;
          case 'QUIT':
            reply('221 2.0.0 bye');
            socket.end();
            break;
          default:
            reply('502 5.5.2 not implemented');
        }
      }
    });
    reply('220 sink.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

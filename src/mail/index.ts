/**
 * Outgoing mail (ARCHITECTURE.md, two shapes): SMTP when SMTP_URL is set, otherwise one .eml
 * file per message in DATA_DIR/outbox. Callers see only the Mailer interface.
 */
import path from 'node:path';
import { createTransport, type SendMailOptions } from 'nodemailer';
import type { Config } from '../config';
import { writeOutboxFile } from './outbox';
import { smtpSpan } from './span';

export interface MailAttachment {
  filename: string;
  /** The attachment itself, or `path`: a file nodemailer streams (a report too large to hold). */
  content?: string | Buffer;
  path?: string;
  contentType?: string;
}

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * Message-ID (`<unique@domain>`). Give a stable one (e.g. derived from the workflow id) so a
   * retried activity re-sends the same message: the outbox then keeps one file. Default: random.
   */
  messageId?: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message or the outbox file is in place. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  /** Closes pooled SMTP connections (`?pool=true` in SMTP_URL); sends after this fail. */
  close(): void;
}

export type MailConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>;

export function outboxDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'outbox');
}

export function createMailer(config: MailConfig): Mailer {
  const defaults = { from: config.MAIL_FROM };
  if (config.SMTP_URL) {
    const transport = createTransport(config.SMTP_URL, defaults);
    return {
      async send(message) {
        const info = await smtpSpan(() => transport.sendMail(toNodemailer(message)));
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const dir = outboxDir(config);
  // CRLF line ends: the file is byte for byte what an SMTP server would have received.
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' }, defaults);
  return {
    async send(message) {
      const info = await transport.sendMail(toNodemailer(message));
      await writeOutboxFile(dir, info.messageId, info.message as Buffer);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

function toNodemailer(m: MailMessage): SendMailOptions {
  return {
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.html !== undefined ? { html: m.html } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
    // In header form (`<…>`), so the id handed back is the same whether or not the caller wrote the brackets.
    ...(m.messageId ? { messageId: `<${m.messageId.trim().replace(/^<|>$/g, '')}>` } : {}),
  };
}

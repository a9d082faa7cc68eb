import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The outbox file of a message: named after its Message-ID, so sending the same message again
 * (an activity retry) replaces the file instead of adding a second one.
 */
export function outboxFileName(messageId: string): string {
  const id = messageId.trim().replace(/^<|>$/g, '');
  // Anything that is not a plain, short file name is hashed: no path separators, no hidden files.
  const safe = /^[A-Za-z0-9_@+=-][A-Za-z0-9._@+=-]{0,149}$/.test(id) ? id : createHash('sha256').update(messageId).digest('hex');
  return `${safe}.eml`;
}

/** Written under a temporary name, then renamed: readers never see a half-written message. */
export async function writeOutboxFile(dir: string, messageId: string, content: Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, outboxFileName(messageId));
  const tmp = path.join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, content, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return file;
}

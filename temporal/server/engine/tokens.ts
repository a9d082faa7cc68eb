/** Task tokens are opaque to workers; ours are small JSON documents naming the task. */
import { invalidArgument } from './errors';

export interface TaskToken {
  ns: string;
  w: string;
  r: string;
  k: 'w' | 'a' | 'q';
  s: number;
  a: number;
  q?: string;
  /** Dispatch nonce: a task handed out again (after a restart) must not look like the old one. */
  d?: number;
}

export function encodeToken(t: TaskToken): Uint8Array {
  return Buffer.from(JSON.stringify(t), 'utf8');
}

export function decodeToken(b: Uint8Array | null | undefined): TaskToken {
  try {
    const t = JSON.parse(Buffer.from(b ?? []).toString('utf8')) as TaskToken;
    if (typeof t.r !== 'string' || typeof t.s !== 'number') throw new Error();
    return t;
  } catch {
    throw invalidArgument('Invalid task token');
  }
}


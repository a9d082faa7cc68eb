// An exclusive, crash-tolerant lock on a data directory. PGlite has no lock of its own, and two
// processes opening one data directory silently lose committed rows (FACTS.md).
//
// The lock is a file created with O_EXCL holding the owner's pid. A lock whose pid is no longer
// alive (the owner was SIGKILLed) is stale and taken over. A lock holding our own pid but not
// held by this process is stale too: in a container the restarted service often gets the same
// pid as the one that crashed.
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(readonly dir: string, readonly pid: number) {
    super(`The data directory ${dir} is in use by process ${pid}. Stop that process first (or use another DATA_DIR).`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

const heldHere = new Set<string>();

export function lockDataDir(dir: string, fileName = 'embedded-db.lock'): DataDirLock {
  const lockFile = path.resolve(dir, fileName);
  if (heldHere.has(lockFile)) throw new DataDirLockedError(dir, process.pid);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockFile)) {
      heldHere.add(lockFile);
      return { release: () => release(lockFile) };
    }
    const owner = readOwner(lockFile);
    if (owner === undefined) continue; // vanished meanwhile: try again
    if (owner !== process.pid && isAlive(owner)) throw new DataDirLockedError(dir, owner);
    removeStale(lockFile, owner);
  }
  throw new Error(`Could not lock the data directory ${dir}: its lock file ${lockFile} keeps changing`);
}

function tryCreate(lockFile: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The owner's pid; NaN when the file is unreadable garbage (a crash while writing it). */
function readOwner(lockFile: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

/**
 * Two starters may find the same stale lock. Renaming it away is atomic, so only one of them
 * removes it; if what was renamed is not the stale lock we read (the other starter already
 * replaced it with its own), it is put back.
 */
function removeStale(lockFile: string, stalePid: number): void {
  const aside = `${lockFile}.stale-${process.pid}`;
  try {
    renameSync(lockFile, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = readOwner(aside);
  if (moved !== undefined && !Number.isNaN(moved) && moved !== stalePid) {
    try {
      linkSync(aside, lockFile); // fails if yet another lock appeared: then that one stands
    } catch {
      // keep whichever lock is in place
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function release(lockFile: string): void {
  heldHere.delete(lockFile);
  if (readOwner(lockFile) === process.pid) unlinkSync(lockFile);
}

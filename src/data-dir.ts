// The data directory holds what must stay the service's own: keys (secrets-key, jwt-secret,
// voucher-secret), the TLS key, the first start's credentials, database.json with the embedded
// database's password, PGlite's files, mails, reports (docs/security.md "The embedded database").
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * From now on this process and its children create files 0600 and folders 0700 (umask 077), and
 * what is already there (an older version's files) is made private. Answers how many entries
 * were changed.
 */
export function protectDataDir(dataDir: string): number {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return makePrivate(dataDir);
}

/**
 * Takes every permission of group and others from the folder and everything in it (chmod -R
 * go-rwx: the owner's stay as they are). PGlite needs it after it starts: it writes its initial
 * files 0666 and a few later ones 0644 whatever the umask.
 */
export function makePrivate(dir: string): number {
  let changed = 0;
  const walk = (entry: string) => {
    let stat;
    try {
      stat = lstatSync(entry);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // removed meanwhile
      throw err;
    }
    if (stat.isSymbolicLink()) return; // its target is not ours to change
    if (stat.mode & 0o077) {
      chmodSync(entry, stat.mode & 0o700);
      changed++;
    }
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(dir);
  return changed;
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository's root, the folder of package.json found upwards: files run from src/ under tsx
 * and from dist/src/ compiled (scripts/build.mjs writes no package.json into dist/), so a path
 * relative to __dirname would differ between the two.
 */
export const ROOT = findRoot(__dirname);

function findRoot(dir: string): string {
  if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  const up = path.dirname(dir);
  if (up === dir) throw new Error(`no package.json above ${__dirname}`);
  return findRoot(up);
}

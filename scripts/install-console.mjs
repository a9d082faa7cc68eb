// Installs the console's packages (console/, its own package.json and lock file) into
// console/node_modules as part of the repository's `npm install` (postinstall), so that
// scripts/build-console.mjs builds it without a registry afterwards (docs/console.md). Not an npm
// workspace, like temporal/server/ui (its install-ui.mjs): a front-end's React, Vite and their
// native binaries stay out of the service's node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../console/', import.meta.url));
// Docker's dependency layer installs before the sources are copied.
if (!existsSync(`${dir}package.json`)) process.exit(0);
// npm install, not ci: the registry's lock files omit other platforms' optional binaries (.ci/run).
const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
process.exit(result.status ?? 1);

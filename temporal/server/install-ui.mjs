// Installs the Temporal UI app's packages (ui/, its own package.json and lock file) into
// ui/node_modules as this package's postinstall (run by the repository's `npm install`), so that
// its first build at start (ui-build.ts) needs no registry. Not a workspace of its own: the build
// runs on a copy of the sources in the data directory, linked to this node_modules, and hoisting
// would scatter the packages into the repository's node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ui = fileURLToPath(new URL('./ui/', import.meta.url));
// Docker's dependency layer installs before the sources are copied.
if (!existsSync(`${ui}package.json`)) process.exit(0);
// npm install, not ci: the registry's lock files omit other platforms' optional binaries (.ci/run).
const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ui, stdio: 'inherit' });
process.exit(result.status ?? 1);

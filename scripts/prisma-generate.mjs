// Prisma's CLI tries to download its native schema engine before any command, even `generate`,
// and this project's machines cannot reach that host. `generate` never runs the engine, so any
// existing file satisfies the check (FACTS.md, "Prisma 7 offline").
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (!existsSync(new URL('../prisma/schema.prisma', import.meta.url))) process.exit(0);
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(import.meta.url), PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);

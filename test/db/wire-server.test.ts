import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/**
 * Regression for the embedded database's wire server (src/db/pglite-wire.ts): connections
 * sharing PGlite's one backend, some inside transactions, some preparing the same statement
 * names, each get the answers to their own statements. PGlite cannot load inside jest, so the check runs in a child process
 * (bench/embedded-interleave.ts exits non-zero on any wrong answer or protocol error).
 */
it('answers every connection with its own results while others hold transactions', async () => {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_CONNECTIONS: '8', BENCH_SECONDS: '3', BENCH_CASES: 'small,big,tx,named', BENCH_PAD: '70000' };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/embedded-interleave.ts')], { cwd: ROOT, env, timeout: 90_000 });
  const summary = /(\d+) right answers, (\d+) wrong answers/.exec(stdout);
  expect(summary).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThan(100);
  expect(Number(summary![2])).toBe(0);
  expect(stdout).not.toMatch(/error:/);
}, 120_000);

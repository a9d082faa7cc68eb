// Preloaded into the at-scale worker processes by bench/engine.ts (through bench/worker-stats.cjs,
// before src/temporal/worker.ts, which starts only as the main module): counts their SQL
// statements (bench/statements.ts) and answers `stats` over IPC as bench/service-child.ts does.
import { statementsSent } from './statements';
import { threadLabels } from './threads';

if (process.send) {
  process.on('message', (msg: { cmd?: string }) => {
    if (msg?.cmd !== 'stats') return;
    const cpu = process.cpuUsage();
    process.send?.({ reply: { cpuMicros: cpu.user + cpu.system, statements: statementsSent(), threads: threadLabels() } });
  });
  // The channel must not keep the worker alive once it has shut down.
  process.channel?.unref();
}

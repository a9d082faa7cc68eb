// The service under load (child process of bench/contacts.ts). A child rather than in-process:
// autocannon in the same process would share the service's event loop and distort both.
// Over IPC it also answers how many SQL statements it sent and how much CPU it used (so runs
// on a busy machine still show the cost per request) and, with BENCH_PROFILE, records a
// CPU profile of exactly one measured run. It also samples its own RSS every 100 ms (bench/rss.ts)
// and reports the peak of each measured run and of its whole life.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { startService } from '../src/service';
import { RssSampler } from './rss';
import { statementsSent } from './statements';
import { threadLabels } from './threads';

export type ChildCommand = { cmd: 'stats' } | { cmd: 'profile-start' } | { cmd: 'profile-stop'; file: string };

const rss = new RssSampler();
const session = new Session();

function post(method: string, params?: object): Promise<unknown> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));
}

async function handle(msg: ChildCommand): Promise<unknown> {
  switch (msg.cmd) {
    case 'stats': {
      const cpu = process.cpuUsage();
      return { statements: statementsSent(), cpuMicros: cpu.user + cpu.system, threads: threadLabels(), ...rss.report() };
    }
    case 'profile-start':
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.start');
      return {};
    case 'profile-stop': {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      session.disconnect();
      writeFileSync(msg.file, JSON.stringify(profile));
      return { file: msg.file };
    }
  }
}

async function main() {
  const config = loadConfig();
  const service = await startService(config, createLogger(config.LOG_LEVEL));
  process.send?.({ url: service.url, databaseUrl: service.databaseUrl, temporalAddress: service.temporalAddress });
  process.on('message', (msg: ChildCommand) => {
    handle(msg).then(
      (reply) => process.send?.({ reply }),
      (err) => process.send?.({ reply: { error: String(err) } }),
    );
  });
  process.on('SIGTERM', () => {
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err) => {
  process.stderr.write(`service failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

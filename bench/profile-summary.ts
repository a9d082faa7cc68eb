// Summarises a V8 .cpuprofile (from BENCH_PROFILE=1): self time per package and the hottest
// functions, enough to tell framework, Prisma, pg, TLS and idle time apart.
// Usage: npx tsx bench/profile-summary.ts bench-profiles/CPU.*.cpuprofile
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string): string {
  if (!url) return '(native/V8)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return url;
  const own = /\/work\/[^/]+\/[^/]+\/(src|temporal)\/(.*)/.exec(url);
  return own ? `${own[1]}/${own[2].split('/').slice(0, 2).join('/')}` : url;
}

for (const file of process.argv.slice(2)) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const sum = (key: (n: Node) => string) => {
    const m = new Map<string, number>();
    for (const [id, t] of self) {
      const k = key(byId.get(id)!);
      m.set(k, (m.get(k) ?? 0) + t);
    }
    return [...m.entries()].sort((a, b) => b[1] - a[1]);
  };
  const pct = (t: number) => `${((100 * t) / total).toFixed(1)}%`.padStart(6);
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  console.log('by area:');
  for (const [k, t] of sum((n) => area(n.callFrame.url)).slice(0, 15)) console.log(`  ${pct(t)} ${k}`);
  console.log('hottest functions:');
  for (const [k, t] of sum((n) => `${n.callFrame.functionName || '(anonymous)'} ${area(n.callFrame.url)}:${n.callFrame.lineNumber}`).slice(0, 25)) console.log(`  ${pct(t)} ${k}`);
}

/** The durable log on its own: torn writes, snapshot + log replay, lock. (No Temporal needed.) */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Store, LogRecord } from '../store/log';

type S = { x: number };
const run = (x: number, from: number, ev: string[]): LogRecord<S> => ({ k: 'run', ns: 'n', runId: 'r', s: { x }, from, ev });
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tstore-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a torn last line is dropped and does not swallow the next append', async () => {
  let { store } = Store.open<S>(dir, () => []);
  await store.append([run(1, 1, ['a'])]);
  await store.close();
  fs.appendFileSync(path.join(dir, 'log.jsonl'), '{"k":"run","ns":"n","runId":"r","s":{"x":2},"fr');
  ({ store } = Store.open<S>(dir, () => []));
  await store.append([run(3, 2, ['b'])]);
  await store.close();
  const { loaded, store: s3 } = Store.open<S>(dir, () => []);
  await s3.close();
  expect(loaded.runs).toEqual([{ ns: 'n', runId: 'r', state: { x: 3 }, events: ['a', 'b'] }]);
});

test('compaction: snapshot plus the log after it; old log lines are not replayed twice', async () => {
  process.env.TEMPORAL_COMPACT_BYTES = '10';
  try {
    let state: LogRecord<S>[] = [];
    const { store } = Store.open<S>(dir, () => state);
    await store.append([run(1, 1, ['a'])]);
    state = [run(2, 1, ['a', 'b'])]; // what the engine holds once the next change is applied
    await store.append([run(2, 2, ['b'])]); // triggers compaction first
    state = [run(3, 1, ['a', 'b', 'c'])];
    await store.append([run(3, 3, ['c'])]);
    await store.close();
    expect(fs.existsSync(path.join(dir, 'snapshot.jsonl'))).toBe(true);
    // Simulate a crash between the snapshot rename and the log truncation: put old lines back.
    const log = fs.readFileSync(path.join(dir, 'log.jsonl'), 'utf8');
    const old = JSON.stringify({ ...run(1, 1, ['a']), q: 1 }) + '\n' + JSON.stringify({ ...run(2, 2, ['b']), q: 2 }) + '\n';
    fs.writeFileSync(path.join(dir, 'log.jsonl'), old + log);
    const { loaded, store: s2 } = Store.open<S>(dir, () => []);
    await s2.close();
    expect(loaded.runs).toEqual([{ ns: 'n', runId: 'r', state: { x: 3 }, events: ['a', 'b', 'c'] }]);
  } finally {
    delete process.env.TEMPORAL_COMPACT_BYTES;
  }
});

test('a data directory held by another live process is refused', async () => {
  fs.writeFileSync(path.join(dir, 'LOCK'), String(process.ppid || 1));
  const holder = process.ppid;
  if (!holder || !fs.readFileSync(`/proc/${holder}/cmdline`, 'utf8').includes('node')) return;
  expect(() => Store.open<S>(dir, () => [])).toThrow(/in use/);
});

test('in-memory mode keeps nothing on disk', async () => {
  const { store, loaded } = Store.open<S>(undefined, () => []);
  await store.append([run(1, 1, ['a'])]);
  expect(loaded.runs).toEqual([]);
  expect(store.durable).toBe(false);
});

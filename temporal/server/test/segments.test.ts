/** Closed-run segments on their own: locations, rolling, deletion when unreferenced. (No Temporal needed.) */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Segments, Location } from '../store/segments';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsegments-'));
});
afterEach(() => {
  delete process.env.TEMPORAL_SEGMENT_BYTES;
  fs.rmSync(dir, { recursive: true, force: true });
});

const files = (): string[] => fs.readdirSync(dir).sort();

test('records appended together get their own locations and read back whole', async () => {
  const segments = new Segments(dir, []);
  const texts = ['{"a":1}', '{"b":"é"}', JSON.stringify({ c: 'x'.repeat(10_000) })];
  const at = await Promise.all(texts.map((t) => segments.append(t)));
  expect(new Set(at.map((l) => l.off)).size).toBe(3);
  expect(at.map((l) => segments.read(l))).toEqual(texts);
  await segments.close();
  // One JSON line per record: the file reads as JSON lines too.
  expect(fs.readFileSync(path.join(dir, files()[0]), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))).toHaveLength(3);
});

test('a full segment is followed by a new one, and a segment goes when nothing in it is referenced', async () => {
  process.env.TEMPORAL_SEGMENT_BYTES = '20';
  const segments = new Segments(dir, []);
  const first = await segments.append('{"run":"one-aaaaaaaaaaaaaaaa"}');
  const second = await segments.append('{"run":"two-aaaaaaaaaaaaaaaa"}');
  const third = await segments.append('{"run":"three-aaaaaaaaaaaaaa"}');
  expect([first.seg, second.seg, third.seg]).toEqual([1, 2, 3]);
  expect(files()).toEqual(['000001.jsonl', '000002.jsonl', '000003.jsonl']);
  segments.release(first);
  expect(files()).toEqual(['000002.jsonl', '000003.jsonl']);
  // The segment being appended to goes too once its records are released; the next one is new.
  segments.release(third);
  expect(files()).toEqual(['000002.jsonl']);
  const fourth = await segments.append('{"run":"four"}');
  expect(fourth.seg).toBe(4);
  expect(segments.read(second)).toBe('{"run":"two-aaaaaaaaaaaaaaaa"}');
  await segments.close();
});

test('at startup, segments nothing references are deleted and appends go to a new segment', async () => {
  let segments = new Segments(dir, []);
  const kept: Location = await segments.append('{"kept":true}');
  await segments.append('{"written before a crash, never logged":true}');
  await segments.close();
  segments = new Segments(dir, [kept]);
  await segments.append('{"orphan":true}'); // segment 2, referenced by nothing after the next start
  await segments.close();
  expect(files()).toEqual(['000001.jsonl', '000002.jsonl']);
  segments = new Segments(dir, [kept]);
  expect(files()).toEqual(['000001.jsonl']);
  expect(segments.read(kept)).toBe('{"kept":true}');
  const next = await segments.append('{"after":"restart"}');
  expect(next.seg).toBe(3);
  await segments.close();
});

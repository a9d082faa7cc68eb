import { isId, newId } from '../../src/domain/ids';

test('ids made one after another sort in the order they were made, even within one millisecond', () => {
  const ids = Array.from({ length: 20_000 }, () => newId());
  for (let i = 1; i < ids.length; i++) expect([i, ids[i - 1] < ids[i]]).toEqual([i, true]);
  // More than one id per millisecond happened, or the test proves nothing.
  expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBeLessThan(ids.length);
});

test('they stay UUIDv7: version 7, RFC 9562 variant, the time of making in the first 48 bits', () => {
  const before = Date.now();
  const id = newId();
  expect(isId(id)).toBe(true);
  expect(id[14]).toBe('7');
  expect('89ab').toContain(id[19]);
  const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  expect(ms).toBeGreaterThanOrEqual(before);
  expect(ms).toBeLessThanOrEqual(Date.now() + 5); // a millisecond borrowed after 4,096 ids in one
});

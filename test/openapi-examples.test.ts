// Every request example of the OpenAPI document (bodies, path and query parameters), sent as it
// is to a fresh organisation, must succeed. The examples tell one story: the create examples
// make the records the later examples name by code (contact C-1001, tap CAFE-01-T2, product
// ESPRESSO-01, ...). What an example cannot know (ids, tokens, a voucher's secret number) is a
// placeholder the story fills in (test/support/examples.ts, docs/DEVELOPING.md "Examples").
import { api } from './support/api';
import { operations, PLAN, Story, type Json } from './support/examples';
import { createTenant } from './support/tenants';

let doc: Json;
let story: Story;

beforeAll(async () => {
  doc = (await api('GET', '/openapi.json')).body;
  story = new Story(doc, await createTenant('OpenAPI examples'));
  await story.fixtures();
}, 90_000);

test('the plan sends every documented operation once', () => {
  const planned = PLAN.map(([id]) => id);
  expect(planned.filter((id, i) => planned.indexOf(id) !== i)).toEqual([]);
  expect([...operations(doc).keys()].filter((id) => !planned.includes(id)).sort()).toEqual([]);
  expect(planned.filter((id) => !operations(doc).has(id))).toEqual([]);
});

test('every example succeeds against a fresh organisation', async () => {
  const ops = operations(doc);
  const failures: string[] = [];
  for (const [id, step = {}] of PLAN) {
    const op = ops.get(id);
    if (!op) continue;
    const { failure } = await story.send(op, step);
    if (failure) failures.push(failure);
  }
  expect(failures).toEqual([]);
}, 300_000);

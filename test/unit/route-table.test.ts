import { RouteTable } from '../../src/api/route-table';
import type { RouteDef } from '../../src/api/route';

const def = (method: RouteDef['method'], path: string) => ({ method, path, operationId: `${method} ${path}` }) as RouteDef;
const table = new RouteTable([
  def('get', '/contacts'),
  def('post', '/contacts'),
  def('get', '/contacts/{id}'),
  def('put', '/contacts/{id}'),
  def('get', '/contacts/{id}/accounts'),
  def('get', '/contacts/{id}/wallet_transactions/{transaction_id}'),
  def('get', '/contacts/search/all'),
]);

const found = (method: string, path: string) => {
  const m = table.find(method, path);
  return m.kind === 'found' ? [m.def.operationId, m.params] : m;
};

test('literal paths, parameters and nested parameters', () => {
  expect(found('GET', '/contacts')).toEqual(['get /contacts', {}]);
  expect(found('POST', '/contacts/')).toEqual(['post /contacts', {}]);
  expect(found('GET', '/contacts/C-1')).toEqual(['get /contacts/{id}', { id: 'C-1' }]);
  expect(found('GET', '/contacts/a%2Fb%20c')).toEqual(['get /contacts/{id}', { id: 'a/b c' }]);
  expect(found('GET', '/contacts/x/wallet_transactions/7')).toEqual(['get /contacts/{id}/wallet_transactions/{transaction_id}', { id: 'x', transaction_id: '7' }]);
  expect(found('HEAD', '/contacts/x/accounts')).toEqual(['get /contacts/{id}/accounts', { id: 'x' }]);
});

test('a literal wins over a parameter, and a dead-end literal falls back to the parameter', () => {
  expect(found('GET', '/contacts/search/all')).toEqual(['get /contacts/search/all', {}]);
  expect(found('GET', '/contacts/search')).toEqual(['get /contacts/{id}', { id: 'search' }]);
  expect(found('GET', '/contacts/search/accounts')).toEqual(['get /contacts/{id}/accounts', { id: 'search' }]);
});

test('unknown paths, empty segments and wrong methods', () => {
  expect(table.find('GET', '/nothing')).toEqual({ kind: 'none' });
  expect(table.find('GET', '/contacts//accounts')).toEqual({ kind: 'none' });
  expect(table.find('GET', '/contacts/x/y')).toEqual({ kind: 'none' });
  expect(table.find('DELETE', '/contacts/x')).toEqual({ kind: 'method', allowed: ['GET', 'PUT'] });
});

test('malformed percent-encoding is a 400 naming the parameter', () => {
  expect(() => table.find('GET', '/contacts/%E0%A4%A')).toThrow(expect.objectContaining({ status: 400, attribute: 'id' }));
});

test('conflicting definitions are refused when the table is built', () => {
  expect(() => new RouteTable([def('get', '/a/{id}'), def('get', '/a/{key}/b')])).toThrow(/parameter/);
  expect(() => new RouteTable([def('get', '/a'), def('get', '/a')])).toThrow(/Two routes/);
});

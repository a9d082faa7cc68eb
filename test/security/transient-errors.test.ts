// Errors that tell the truth (issue 20 part 7): a lost or refused connection, an admin shutdown,
// a serialization failure and a deadlock are the database's weather, not a fault of the request:
// 503 UNAVAILABLE with Retry-After, never a 500. The errors are real ones, produced by pg against
// a real server; shutdown, deadlock and serialization need PostgreSQL's own backends (the embedded
// database has one backend, where none of them can happen), so they run on the PostgreSQL pass.
import express from 'express';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { Client } from 'pg';
import { errorHandler, toAppError } from '../../src/api/middleware/errors';

const postgres = process.env.DATABASE_URL;
/** Declared only on the PostgreSQL pass; the embedded pass says so instead of skipping. */
const onPostgres = (name: string, fn: () => Promise<void>) => (postgres ? test(name, fn) : undefined);
if (!postgres) console.log('DATABASE_URL unset: the shutdown, deadlock and serialization cases run on the PostgreSQL pass only');

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected the work to fail');
}

function expectUnavailable(err: unknown): void {
  const mapped = toAppError(err);
  expect({ status: mapped.status, code: mapped.code }).toEqual({ status: 503, code: 'UNAVAILABLE' });
}

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a refused connection is 503 with Retry-After over HTTP, not 500', async () => {
  const port = await closedPort();
  const refused = await failureOf(() => new Client({ host: '127.0.0.1', port, user: 'x', database: 'x' }).connect());
  expectUnavailable(refused);
  // Through the one error handler, as a client sees it.
  const app = express();
  app.get('/', (_req, _res, next) => next(refused));
  app.use(errorHandler({ error: () => {} } as never));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const res = await new Promise<http.IncomingMessage>((resolve) => http.get({ port: (server.address() as net.AddressInfo).port, host: '127.0.0.1' }, resolve));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    res.resume();
  } finally {
    server.close();
  }
});

onPostgres('an admin shutdown of the backend and a lost connection are 503', async () => {
  const client = new Client({ connectionString: postgres });
  await client.connect();
  client.on('error', () => {});
  expectUnavailable(await failureOf(() => client.query('SELECT pg_terminate_backend(pg_backend_pid())')));
  expectUnavailable(await failureOf(() => client.query('SELECT 1')));
});

onPostgres('a deadlock and a serialization failure are 503 (PostgreSQL rolled the loser back)', async () => {
  const [a, b] = [new Client({ connectionString: postgres }), new Client({ connectionString: postgres })];
  await Promise.all([a.connect(), b.connect()]);
  try {
    // Two sessions must see it: a real table, unique to this run.
    const table = `transient_${process.pid}`;
    await a.query(`CREATE TABLE ${table} (id int primary key, v int); INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      await a.query(`UPDATE ${table} SET v = 1 WHERE id = 1`);
      await b.query(`UPDATE ${table} SET v = 1 WHERE id = 2`);
      const crossing = [a.query(`UPDATE ${table} SET v = 2 WHERE id = 2`), b.query(`UPDATE ${table} SET v = 2 WHERE id = 1`)];
      const outcomes = await Promise.allSettled(crossing);
      const loser = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect((loser.reason as { code?: string }).code).toBe('40P01');
      expectUnavailable(loser.reason);
      await Promise.all([a.query('ROLLBACK'), b.query('ROLLBACK')]);

      await a.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      await b.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      await a.query(`SELECT sum(v) FROM ${table}`);
      await b.query(`SELECT sum(v) FROM ${table}`);
      await a.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
      await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 2`);
      await a.query('COMMIT');
      const serialization = await failureOf(() => b.query('COMMIT'));
      expect((serialization as { code?: string }).code).toBe('40001');
      expectUnavailable(serialization);
    } finally {
      await a.query('ROLLBACK').catch(() => {});
      await b.query('ROLLBACK').catch(() => {});
      await a.query(`DROP TABLE IF EXISTS ${table}`);
    }
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
});

test('a constraint violation is still the request\'s fault: 409, not 503', async () => {
  expect(toAppError({ code: '23505', detail: 'Key (organisation_id, code)=(x, y) already exists.', table: 'contacts' }).status).toBe(409);
});

import { randomInt } from 'node:crypto';
import { addressKey } from '../../src/domain/identity/throttle';
import { api, refusedWithin, type ApiResponse } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

// Every test signs in from an address of its own in 127/8 (the service listens on 127.0.0.1 and
// Linux routes the whole block to it): the per-address counter of 127.0.0.1, which every other
// test file shares, is never touched here.
const loopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(2, 255)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: Tenant;
let n = 0;
beforeAll(async () => {
  t = await createTenant();
});

async function newUser(): Promise<{ id: string; username: string; password: string }> {
  const username = `cred-${Date.now()}-${process.pid}-${++n}`;
  return JSON.parse(await adminCli(['create-user', '--organisation', t.organisationId, '--username', username]));
}

const login = (from: string, username: string, password: string) =>
  api('POST', '/users/login', { body: { username, password }, localAddress: from });

const admin = async (command: string, username: string) =>
  JSON.parse(await adminCli([command, '--organisation', t.organisationId, '--username', username]));

function expectLocked(res: ApiResponse) {
  expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

/** Fails until a lock of at least `seconds` is in force (waiting out shorter ones), so what follows runs inside it. */
async function lockFor(seconds: number, attempt: () => Promise<ApiResponse>): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const res = await attempt();
    if (res.status === 429 && Number(res.headers['retry-after']) >= seconds) return;
    if (res.status === 429) await sleep(1000 * Number(res.headers['retry-after']));
    else expect(res.status).toBe(401);
  }
  throw new Error('never locked');
}

describe('login throttling', () => {
  it('locks a username after a few failures, before the 10th, even for the right password, and a success resets it', async () => {
    const user = await newUser();
    const from = loopback();
    let firstLocked = 0;
    for (let i = 1; i <= 9 && !firstLocked; i++) {
      const res = await login(from, user.username, `wrong-${i}`);
      if (res.status === 429) firstLocked = i;
      else expect(res.status).toBe(401);
    }
    expect(firstLocked).toBeGreaterThan(0);
    await lockFor(2, () => login(from, user.username, 'wrong'));
    const locked = await login(from, user.username, user.password);
    expectLocked(locked);
    // Another address gets the same answer: the lock is the username's.
    expectLocked(await login(loopback(), user.username, user.password));

    await sleep(1000 * Number(locked.headers['retry-after']) + 200);
    expect((await login(from, user.username, user.password)).status).toBe(200);
    expect((await login(from, user.username, 'wrong-again')).status).toBe(401);
  });

  it('counts an unknown username like a known one', async () => {
    const [from, nobody] = [loopback(), `nobody-${Date.now()}-${process.pid}`];
    await lockFor(1, () => login(from, nobody, 'x'));
  });

  it('keeps a locked username from locking another one', async () => {
    const [victim, other] = [await newUser(), await newUser()];
    const from = loopback();
    await lockFor(2, () => login(from, victim.username, 'wrong'));
    expectLocked(await login(from, victim.username, victim.password));
    expect((await login(from, other.username, other.password)).status).toBe(200);
  });

  it('locks an address that tries many usernames, and only that address', async () => {
    const user = await newUser();
    const from = loopback();
    // 100 free failures per address (LOGIN_FAILURES_PER_ADDRESS), one per username: no username lock.
    const stamp = Date.now();
    for (let i = 0; i < 100; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_x, j) => login(from, `spray-${stamp}-${i + j}`, 'guess')));
      expect(batch.map((r) => r.status)).toEqual(Array(10).fill(401));
    }
    await lockFor(2, () => login(from, `spray-${stamp}-${randomInt(1e9)}`, 'guess'));
    expectLocked(await login(from, user.username, user.password));
    expect((await login(loopback(), user.username, user.password)).status).toBe(200);
  });

  it('throttles invalid refresh tokens per address, under a lock of their own', async () => {
    const user = await newUser();
    const from = loopback();
    const refresh = (token: string) => api('POST', '/users/refresh', { body: { refresh_token: token }, localAddress: from });
    const good = (await login(loopback(), user.username, user.password)).body.refresh_token as string;
    // REFRESH_FAILURES_PER_ADDRESS (10) are free, in parallel too.
    const batch = await Promise.all(Array.from({ length: 10 }, (_x, j) => refresh(`rt_guess-${j}`)));
    expect(batch.map((r) => r.status)).toEqual(Array(10).fill(401));
    await lockFor(2, () => refresh('rt_guess'));
    expectLocked(await refresh(good));
    // Sign-ins from that address keep their own count.
    expect((await login(from, user.username, user.password)).status).toBe(200);
  });
});

describe('sessions', () => {
  it('refuses a token within the cache window after revoke-sessions, and its refresh token at once', async () => {
    const user = await newUser();
    const from = loopback();
    const pair = (await login(from, user.username, user.password)).body;
    expect((await api('GET', '/users?size=1', { token: pair.access_token })).status).toBe(200);

    expect(await admin('revoke-sessions', user.username)).toMatchObject({ id: user.id, sessions_revoked: true });
    expect(await refusedWithin(pair.access_token)).toBe(401);
    expect((await api('POST', '/users/refresh', { body: { refresh_token: pair.refresh_token }, localAddress: from })).status).toBe(401);

    const again = (await login(from, user.username, user.password)).body;
    expect((await api('GET', '/users?size=1', { token: again.access_token })).status).toBe(200);
  });

  it('refuses a disabled user like a wrong password, and lets them in again once enabled', async () => {
    const user = await newUser();
    const from = loopback();
    const pair = (await login(from, user.username, user.password)).body;
    await admin('disable-user', user.username);
    expect(await refusedWithin(pair.access_token)).toBe(401);
    expect((await api('POST', '/users/refresh', { body: { refresh_token: pair.refresh_token }, localAddress: from })).status).toBe(401);
    const disabled = await login(from, user.username, user.password);
    const wrong = await login(from, user.username, 'not-the-password');
    expect([disabled.status, disabled.body.message]).toEqual([401, wrong.body.message]);

    await admin('enable-user', user.username);
    expect((await login(from, user.username, user.password)).status).toBe(200);
  });

  it('resets a password: the old one and its sessions stop working, the new one works', async () => {
    const user = await newUser();
    const from = loopback();
    const token = (await login(from, user.username, user.password)).body.access_token;
    const reset = JSON.parse(await adminCli(['reset-password', '--organisation', t.organisationId, '--id', user.id]));
    expect(reset).toMatchObject({ id: user.id, username: user.username, password: expect.any(String) });
    expect(reset.password).not.toBe(user.password);
    expect((await login(from, user.username, user.password)).status).toBe(401);
    expect((await login(from, user.username, reset.password)).status).toBe(200);
    expect(await refusedWithin(token)).toBe(401);
  });

  it('refuses another organisation\'s user', async () => {
    const user = await newUser();
    const other = await createTenant();
    await expect(adminCli(['disable-user', '--organisation', other.organisationId, '--username', user.username])).rejects.toThrow(/not found/i);
    expect((await login(loopback(), user.username, user.password)).status).toBe(200);
  });
});

describe('addressKey', () => {
  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(addressKey('::ffff:127.0.0.23')).toBe('ip:127.0.0.23');
    expect(addressKey('127.0.0.23')).toBe('ip:127.0.0.23');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });
});

// The embedded shape's backup (docs/operations.md "Backups"): taken with the admin command line
// while a running service is under load (journals, purchases paying from wallets, new contacts),
// restored into a fresh data directory, and a service started on it answers the state the source
// had at the backup's snapshot, whose ledger check passes.
//
// "At the snapshot": the test cannot see the instant the snapshot began, only that it lies within
// the backup command's run. So every write answered before the command started must be in the
// restored data, none begun after it ended may be, and for the writes in between the restored
// balances must be exactly the sum of the ones it holds: no half of a write, no balance without
// its entries.
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { adminCli, createTenant } from '../support/tenants';

/** The embedded shape whatever the run's DATABASE_URL: that is the shape this backup is for. */
function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  const env = serviceEnv(dataDir, { OUTBOX_DISPATCHER: 'true' });
  delete env.DATABASE_URL;
  return env;
}
const admin = (args: string[], dataDir: string) => adminCli(args, dataDir, '');

interface Op {
  kind: 'credit' | 'debit' | 'purchase' | 'contact';
  wallet?: number;
  cents: number;
  started: number;
  ended: number;
  id: string;
}

const WALLETS = 6;
const OPENING_CENTS = 100_000;

describe('backup and restore of the embedded shape', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'backoffice-backup-'));
  const sourceDir = path.join(root, 'source');
  const restoredDir = path.join(root, 'restored');
  const file = path.join(root, 'backup.gz');
  let source: ServiceProcess | undefined;
  let restored: ServiceProcess | undefined;
  afterAll(async () => {
    await source?.stop('SIGKILL');
    await restored?.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('a backup taken under load restores the same balances and contacts, and its ledger check passes', async () => {
    source = await startServiceProcess(embeddedEnv(sourceDir));
    const { secretKey: key } = await createTenant('backup source', sourceDir, '');
    const call = (method: string, route: string, body?: unknown, service = source!) =>
      api(method, route, { baseUrl: service.url, ca: serviceCa(service === source ? sourceDir : restoredDir), key, body });
    const created = async (route: string, body: unknown) => {
      const res = await call('POST', route, body);
      if (res.status !== 200) throw new Error(`POST ${route}: ${res.status} ${res.text}`);
      return res.body.id as string;
    };

    const run = Date.now().toString(36);
    await created('/products', { sku: `BK-${run}`, name: 'Coffee' });
    await created('/organisations', { code: `BK-SHOP-${run}`, name: 'Shop', type: 'MERCHANT', taps: [{ name: 'Till', code: `BK-TILL-${run}` }] });
    const wallets: Array<{ contact: string; wallet: string }> = [];
    for (let i = 0; i < WALLETS; i++) {
      const contact = await created('/contacts', { contact_type: 'PERSON', code: `BK-${run}-${i}`, first_name: 'Back', last_name: `Up ${i}`, accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
      const account = (await call('GET', `/contacts/${contact}/accounts?primary_only=true`)).body.accounts[0].id;
      const wallet = await created(`/accounts/${account}/wallets`, {});
      await created('/journals', { wallet_id: wallet, amount: OPENING_CENTS / 100, type: 'CREDIT' });
      wallets.push({ contact, wallet });
    }

    // The load: four clients, each write answered before its next; bounded in count and time.
    const ops: Op[] = [];
    let stop = false;
    let n = 0;
    const until = Date.now() + 60_000;
    const client = async (c: number) => {
      for (let i = 0; !stop && Date.now() < until && ops.length < 1500; i++) {
        const w = (c + i) % WALLETS;
        const kind = (['credit', 'debit', 'purchase', 'contact'] as const)[(c + i) % 4];
        const cents = 1 + ((c * 31 + i * 17) % 997);
        const started = Date.now();
        const seq = ++n;
        let id: string;
        if (kind === 'credit' || kind === 'debit') {
          id = await created('/journals', { wallet_id: wallets[w].wallet, amount: cents / 100, type: kind.toUpperCase() });
        } else if (kind === 'purchase') {
          id = await created('/purchases', {
            contact_id: wallets[w].contact, reference_number: `BK-${run}-${seq}`, merchant_tap: { code: `BK-TILL-${run}` },
            products: [{ product_sku: `BK-${run}`, net_amount: 10, tax_amount: 2, total_amount: 12 }], spend_request: { amount: cents / 100 },
          });
        } else {
          id = await created('/contacts', { contact_type: 'PERSON', code: `BK-${run}-new-${seq}`, first_name: 'New', last_name: `Contact ${seq}` });
        }
        ops.push({ kind, wallet: kind === 'contact' ? undefined : w, cents, started, ended: Date.now(), id });
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    const waitFor = async (count: number) => {
      while (ops.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    };
    await waitFor(40);
    const backupStarted = Date.now();
    const backup = JSON.parse(await admin(['backup', '--to', file], sourceDir));
    const backupEnded = Date.now();
    const doneAtBackup = ops.length;
    await waitFor(doneAtBackup + 20);
    stop = true;
    await load;
    expect(backup).toMatchObject({ file, tables: expect.any(Number), rows: expect.any(Number), bytes: statSync(file).size });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Under load: writes were running while the backup did, and went on after it.
    expect(ops.filter((o) => o.started < backupEnded && o.ended > backupStarted).length).toBeGreaterThan(0);
    expect(ops.filter((o) => o.started > backupEnded).length).toBeGreaterThan(0);

    // A data directory with anything in it is refused, the source's (running) too.
    await expect(admin(['restore', '--from', file], sourceDir)).rejects.toThrow(/is not empty.*--force/s);
    const restore = JSON.parse(await admin(['restore', '--from', file], restoredDir));
    expect(restore).toMatchObject({ data_dir: restoredDir, rows: backup.rows, tables: backup.tables, ledger: { ok: true, violations: [] } });
    // On the PostgreSQL pass SECRETS_KEY is set (SHARED_DATABASE_ENV): then only the voucher key is named.
    expect(restore.before_start).toMatch(process.env.DATABASE_URL ? /voucher-secret/ : /secrets-key and voucher-secret/);
    // What docs/operations.md says to do: the keys are kept apart from the backup.
    for (const name of ['secrets-key', 'voucher-secret']) {
      if (existsSync(path.join(sourceDir, name))) copyFileSync(path.join(sourceDir, name), path.join(restoredDir, name));
    }
    restored = await startServiceProcess(embeddedEnv(restoredDir));
    expect(JSON.parse(await admin(['check-ledger'], restoredDir))).toEqual({ ok: true, violations: [] });

    // Which writes the restored data holds, found through the API.
    const ids = async (route: string, list: string) => {
      const found = new Set<string>();
      for (let page = 1; ; page++) {
        const res = await call('GET', `${route}&size=100&page=${page}`, undefined, restored);
        expect(res.status).toBe(200);
        for (const x of res.body[list]) found.add(x.id);
        if (page * 100 >= res.body.paging.total) return found;
      }
    };
    const present = new Set<string>();
    for (const { contact } of wallets) {
      for (const id of await ids(`/contacts/${contact}/wallet_transactions?sort=number`, 'content')) present.add(id);
      for (const id of await ids(`/purchases?contact_id=${contact}&performed_on_from=1`, 'purchases')) present.add(id);
    }
    const holds = new Map<Op, boolean>();
    for (const op of ops) {
      holds.set(op, op.kind === 'contact' ? (await call('GET', `/contacts/${op.id}`, undefined, restored)).status === 200 : present.has(op.id));
    }
    for (const op of ops) {
      if (op.ended < backupStarted) expect({ ...op, restored: holds.get(op) }).toEqual({ ...op, restored: true });
      if (op.started > backupEnded) expect({ ...op, restored: holds.get(op) }).toEqual({ ...op, restored: false });
    }

    // Balances: the opening credit and exactly the restored writes, to the cent.
    for (const [w, { contact, wallet }] of wallets.entries()) {
      const sign = { credit: 1, debit: -1, purchase: -1, contact: 0 } as const;
      const expected = ops.filter((o) => o.wallet === w && holds.get(o)).reduce((sum, o) => sum + sign[o.kind] * o.cents, OPENING_CENTS);
      const res = await call('GET', `/contacts/${contact}/wallets`, undefined, restored);
      const balance = res.body.find((x: { id: string }) => x.id === wallet).balance;
      expect({ wallet: w, cents: Math.round(balance * 100) }).toEqual({ wallet: w, cents: expected });
    }
    const contacts = (service: ServiceProcess) => call('GET', '/contacts?size=1', undefined, service).then((r) => r.body.paging.total as number);
    const newContacts = ops.filter((o) => o.kind === 'contact');
    expect(await contacts(restored)).toBe(WALLETS + newContacts.filter((o) => holds.get(o)).length);
    expect(await contacts(source)).toBe(WALLETS + newContacts.length);
    console.log(`backup under load: ${backup.rows} rows, ${backup.bytes} bytes, ${backup.ms} ms (snapshot held ${backup.snapshot_ms} ms); restore ${restore.ms} ms; ${ops.length} writes, ${doneAtBackup} answered by the backup's end`);
  }, 300_000); // two service starts, a restore with its initdb, and the load

  it('refuses a cut-short backup and leaves the data directory as it was', async () => {
    const cut = path.join(root, 'cut.gz');
    copyFileSync(file, cut);
    truncateSync(cut, Math.floor(statSync(cut).size / 2));
    const target = path.join(root, 'from-cut');
    await expect(admin(['restore', '--from', cut], target)).rejects.toThrow(/unexpected end of file|incomplete/);
    expect(existsSync(path.join(target, 'pgdata'))).toBe(false);
  }, 120_000);
});

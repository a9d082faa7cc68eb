// Temporal connection security from configuration (docs/security.md "Workflows and personal
// data"; README "Configuration"): the checks of src/config.ts and the options src/temporal/runtime.ts and
// src/temporal/worker.ts connect with. The embedded Temporal server speaks no TLS, so TLS itself is proven
// against a real cluster only; this file proves what the service makes of the variables.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { temporalConnectionOptions } from '../../src/temporal/connection';

const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
const pem = (name: string, kind: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, `-----BEGIN ${kind}-----\nMIIB${name}\n-----END ${kind}-----\n`);
  return file;
};
const ca = pem('ca.pem', 'CERTIFICATE');
const cert = pem('client.pem', 'CERTIFICATE');
const key = pem('client.key', 'PRIVATE KEY');
const notPem = path.join(dir, 'not.pem');
writeFileSync(notPem, 'hello');

const cluster = { TEMPORAL_ADDRESS: 'temporal.internal:7233' };
const error = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
};

test('without TLS variables the connection is plain, as for the embedded server', () => {
  expect(temporalConnectionOptions(loadConfig({}))).toEqual({});
  expect(temporalConnectionOptions(loadConfig(cluster))).toEqual({});
});

test('mTLS: the CA, the client pair and the server name reach the connection options', () => {
  const config = loadConfig({ ...cluster, TEMPORAL_TLS_CA_FILE: ca, TEMPORAL_TLS_CERT_FILE: cert, TEMPORAL_TLS_KEY_FILE: key, TEMPORAL_TLS_SERVER_NAME: 'temporal.example.com' });
  const options = temporalConnectionOptions(config);
  expect(options.apiKey).toBeUndefined();
  const tls = options.tls || {};
  expect(tls).toMatchObject({ serverNameOverride: 'temporal.example.com' });
  expect(Buffer.from(tls.serverRootCACertificate!).toString()).toContain('MIIBca.pem');
  expect(Buffer.from(tls.clientCertPair!.crt).toString()).toContain('MIIBclient.pem');
  expect(Buffer.from(tls.clientCertPair!.key).toString()).toContain('MIIBclient.key');
});

const KEY = 'k-0123456789abcdef0123456789abcdef';

test('an API key (Temporal Cloud) goes with TLS, in the clear only to loopback (another process\'s embedded server); TEMPORAL_TLS=true alone uses the system CAs', () => {
  expect(temporalConnectionOptions(loadConfig({ ...cluster, TEMPORAL_API_KEY: KEY }))).toEqual({ tls: {}, apiKey: KEY });
  expect(temporalConnectionOptions(loadConfig({ ...cluster, TEMPORAL_TLS: 'true' }))).toEqual({ tls: {} });
  expect(error({ ...cluster, TEMPORAL_API_KEY: KEY, TEMPORAL_TLS: 'false' })).toMatch(/TEMPORAL_API_KEY .*loopback/);
  const local = { TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_API_KEY: KEY };
  expect(temporalConnectionOptions(loadConfig(local))).toEqual({ tls: false, apiKey: KEY });
  expect(temporalConnectionOptions(loadConfig({ ...local, TEMPORAL_TLS: 'false' }))).toEqual({ tls: false, apiKey: KEY });
  expect(temporalConnectionOptions(loadConfig({ ...local, TEMPORAL_TLS: 'true' }))).toEqual({ tls: {}, apiKey: KEY });
  // Without TEMPORAL_ADDRESS it is the embedded server's key; a short one is refused.
  expect(error({ TEMPORAL_API_KEY: KEY })).toBe('accepted');
  expect(error({ TEMPORAL_API_KEY: 'short' })).toMatch(/TEMPORAL_API_KEY.*32/);
  expect(error({ TEMPORAL_API_KEY: KEY, TEMPORAL_SERVER: 'cli' })).toMatch(/TEMPORAL_API_KEY.*CLI/);
});

test('bad TLS configuration is refused at start with a message naming the variable', () => {
  expect(error({ ...cluster, TEMPORAL_TLS_CA_FILE: path.join(dir, 'missing.pem') })).toMatch(/^Invalid configuration: TEMPORAL_TLS_CA_FILE .*missing\.pem/);
  expect(error({ ...cluster, TEMPORAL_TLS_CA_FILE: notPem })).toMatch(/^Invalid configuration: TEMPORAL_TLS_CA_FILE .*PEM/);
  expect(error({ ...cluster, TEMPORAL_TLS_CA_FILE: dir })).toMatch(/^Invalid configuration: TEMPORAL_TLS_CA_FILE /);
  expect(error({ ...cluster, TEMPORAL_TLS_CERT_FILE: cert })).toMatch(/TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE must be set together/);
  expect(error({ ...cluster, TEMPORAL_TLS_KEY_FILE: key })).toMatch(/TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE must be set together/);
  expect(error({ ...cluster, TEMPORAL_TLS_CERT_FILE: cert, TEMPORAL_TLS_KEY_FILE: cert })).toMatch(/TEMPORAL_TLS_KEY_FILE .*private key/);
  expect(error({ ...cluster, TEMPORAL_TLS: 'false', TEMPORAL_TLS_CA_FILE: ca })).toMatch(/TEMPORAL_TLS is false/);
  // The embedded server has no TLS: these only make sense with TEMPORAL_ADDRESS.
  expect(error({ TEMPORAL_TLS_CA_FILE: ca })).toMatch(/TEMPORAL_ADDRESS/);
});

test('the API key never appears in a configuration error', () => {
  const secret = 'secret-key-value-0123456789abcdef-0123';
  expect(error({ ...cluster, TEMPORAL_API_KEY: secret, TEMPORAL_TLS: 'false' })).toMatch(/TEMPORAL_API_KEY/);
  expect(error({ ...cluster, TEMPORAL_API_KEY: secret, TEMPORAL_TLS: 'false' })).not.toContain(secret);
  expect(error({ TEMPORAL_API_KEY: 'secret-short' })).not.toContain('secret-short');
});

// How the service reaches a Temporal cluster securely (docs/security.md "Workflows and personal
// data"): TLS with the cluster's CA, mTLS with a client pair, an API key (Temporal Cloud). Anyone
// who reaches the frontend can start, signal and terminate the service's workflows, so at scale
// the endpoint must authenticate its callers. The embedded server speaks plain gRPC on loopback
// and takes only callers holding its API key (temporal/server/credential.ts): the same
// TEMPORAL_API_KEY, or the key made at its first start in DATA_DIR/temporal-api-key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadOrCreateApiKey } from '@backoffice/temporal-server';
import type { TLSConfig } from '@temporalio/client';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A readable file holding a PEM block of that kind: checked at start, not at the first connection. */
const pemFile = (kind: string, pattern: RegExp) =>
  z.string().min(1).superRefine((file, ctx) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `cannot be read: ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    if (!pattern.test(text)) ctx.addIssue({ code: 'custom', message: `${file} holds no PEM ${kind}` });
  });

const CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** The variables, spread into configSchema (src/config.ts). */
export const temporalSecurityShape = {
  /** TLS to TEMPORAL_ADDRESS; unset: on when any TLS file, server name or API key is set. */
  TEMPORAL_TLS: bool.optional(),
  TEMPORAL_TLS_CA_FILE: pemFile('certificate', CERTIFICATE).optional(),
  TEMPORAL_TLS_CERT_FILE: pemFile('certificate', CERTIFICATE).optional(),
  TEMPORAL_TLS_KEY_FILE: pemFile('private key', PRIVATE_KEY).optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  /**
   * Sent as `Authorization: Bearer`: over TLS, or in the clear only to a loopback address (the
   * embedded server of another process). Without TEMPORAL_ADDRESS: the embedded server's key.
   * A secret: never logged, never in a message.
   */
  TEMPORAL_API_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
};

type Security = z.output<z.ZodObject<typeof temporalSecurityShape>> & { TEMPORAL_ADDRESS?: string };

/** What no single variable shows: the first problem, or null. */
export function temporalSecurityProblem(c: Security & { TEMPORAL_SERVER?: string }): string | null {
  const tlsNames = (['TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'TEMPORAL_TLS_KEY_FILE', 'TEMPORAL_TLS_SERVER_NAME'] as const).filter((k) => c[k] !== undefined);
  const named = [...(c.TEMPORAL_TLS !== undefined ? ['TEMPORAL_TLS'] : []), ...tlsNames];
  if (named.length && !c.TEMPORAL_ADDRESS) {
    return `${named[0]} applies to TEMPORAL_ADDRESS (a Temporal cluster); the embedded Temporal server speaks no TLS`;
  }
  if (c.TEMPORAL_API_KEY !== undefined && !c.TEMPORAL_ADDRESS && c.TEMPORAL_SERVER === 'cli') {
    return 'TEMPORAL_API_KEY: the Temporal CLI\'s dev server (TEMPORAL_SERVER=cli) takes no API key';
  }
  if ((c.TEMPORAL_TLS_CERT_FILE === undefined) !== (c.TEMPORAL_TLS_KEY_FILE === undefined)) {
    return 'TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE must be set together (mTLS)';
  }
  if (c.TEMPORAL_TLS === false && c.TEMPORAL_API_KEY !== undefined && c.TEMPORAL_ADDRESS && !isLoopback(c.TEMPORAL_ADDRESS)) {
    return 'TEMPORAL_API_KEY is sent in the clear only to a loopback address: TEMPORAL_TLS must not be false';
  }
  if (c.TEMPORAL_TLS === false && tlsNames.length) return `TEMPORAL_TLS is false but ${tlsNames[0]} is set`;
  return null;
}

export function isLoopback(address: string): boolean {
  const host = address.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export interface TemporalConnectionOptions {
  /** false: plain gRPC even with an API key (the SDK would turn TLS on for one). */
  tls?: TLSConfig | false;
  apiKey?: string;
}

/** The `tls` and `apiKey` options of Connection.connect (client) and NativeConnection.connect (worker) to TEMPORAL_ADDRESS. */
export function temporalConnectionOptions(config: Security): TemporalConnectionOptions {
  const key = config.TEMPORAL_API_KEY ? { apiKey: config.TEMPORAL_API_KEY } : {};
  const tlsFiles = Boolean(config.TEMPORAL_TLS_CA_FILE || config.TEMPORAL_TLS_CERT_FILE || config.TEMPORAL_TLS_SERVER_NAME);
  // An API key alone means TLS, except to a loopback address: the embedded server of another process.
  const on = config.TEMPORAL_TLS ?? (tlsFiles || (Boolean(config.TEMPORAL_API_KEY) && !isLoopback(config.TEMPORAL_ADDRESS ?? '')));
  if (!on) return config.TEMPORAL_API_KEY ? { tls: false, ...key } : {};
  const tls: TLSConfig = {};
  if (config.TEMPORAL_TLS_CA_FILE) tls.serverRootCACertificate = readFileSync(config.TEMPORAL_TLS_CA_FILE);
  if (config.TEMPORAL_TLS_CERT_FILE && config.TEMPORAL_TLS_KEY_FILE) {
    tls.clientCertPair = { crt: readFileSync(config.TEMPORAL_TLS_CERT_FILE), key: readFileSync(config.TEMPORAL_TLS_KEY_FILE) };
  }
  if (config.TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = config.TEMPORAL_TLS_SERVER_NAME;
  return { tls, ...key };
}

/**
 * How the service and its workers reach the embedded server: its key (TEMPORAL_API_KEY, else the
 * one made at the first start in the data directory, 0600), in the clear on loopback.
 */
export function embeddedConnectionOptions(config: Pick<Security, 'TEMPORAL_API_KEY'> & { dataDir: string }): TemporalConnectionOptions & { apiKey: string } {
  return { apiKey: config.TEMPORAL_API_KEY ?? loadOrCreateApiKey(path.join(config.dataDir, EMBEDDED_KEY_FILE)), tls: false };
}

export const EMBEDDED_KEY_FILE = 'temporal-api-key';

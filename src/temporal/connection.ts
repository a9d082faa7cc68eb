// How the service reaches a Temporal cluster securely (docs/security.md "Workflows and personal
// data"): TLS with the cluster's CA, mTLS with a client pair, an API key (Temporal Cloud). Anyone
// who reaches the frontend can start, signal and terminate the service's workflows, so at scale
// the endpoint must authenticate its callers. The embedded server speaks plain gRPC on loopback.
import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import { z } from 'zod';
import type { Config } from '../config';

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
  /** Sent as `Authorization: Bearer`, only over TLS. A secret: never logged, never in a message. */
  TEMPORAL_API_KEY: z.string().min(1).optional(),
};

type Security = z.output<z.ZodObject<typeof temporalSecurityShape>> & { TEMPORAL_ADDRESS?: string };

/** What no single variable shows: the first problem, or null. */
export function temporalSecurityProblem(c: Security): string | null {
  const tlsNames = (['TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'TEMPORAL_TLS_KEY_FILE', 'TEMPORAL_TLS_SERVER_NAME'] as const).filter((k) => c[k] !== undefined);
  const named = [...(c.TEMPORAL_TLS !== undefined ? ['TEMPORAL_TLS'] : []), ...tlsNames, ...(c.TEMPORAL_API_KEY !== undefined ? ['TEMPORAL_API_KEY'] : [])];
  if (named.length && !c.TEMPORAL_ADDRESS) {
    return `${named[0]} applies to TEMPORAL_ADDRESS (a Temporal cluster); the embedded Temporal server speaks no TLS`;
  }
  if ((c.TEMPORAL_TLS_CERT_FILE === undefined) !== (c.TEMPORAL_TLS_KEY_FILE === undefined)) {
    return 'TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE must be set together (mTLS)';
  }
  if (c.TEMPORAL_TLS === false && c.TEMPORAL_API_KEY !== undefined) return 'TEMPORAL_API_KEY is sent only over TLS: TEMPORAL_TLS must not be false';
  if (c.TEMPORAL_TLS === false && tlsNames.length) return `TEMPORAL_TLS is false but ${tlsNames[0]} is set`;
  return null;
}

export interface TemporalConnectionOptions {
  tls?: TLSConfig;
  apiKey?: string;
}

/** The `tls` and `apiKey` options of Connection.connect (client) and NativeConnection.connect (worker). */
export function temporalConnectionOptions(config: Pick<Config, keyof typeof temporalSecurityShape>): TemporalConnectionOptions {
  const on = config.TEMPORAL_TLS ?? Boolean(config.TEMPORAL_TLS_CA_FILE || config.TEMPORAL_TLS_CERT_FILE || config.TEMPORAL_TLS_SERVER_NAME || config.TEMPORAL_API_KEY);
  if (!on) return {};
  const tls: TLSConfig = {};
  if (config.TEMPORAL_TLS_CA_FILE) tls.serverRootCACertificate = readFileSync(config.TEMPORAL_TLS_CA_FILE);
  if (config.TEMPORAL_TLS_CERT_FILE && config.TEMPORAL_TLS_KEY_FILE) {
    tls.clientCertPair = { crt: readFileSync(config.TEMPORAL_TLS_CERT_FILE), key: readFileSync(config.TEMPORAL_TLS_KEY_FILE) };
  }
  if (config.TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = config.TEMPORAL_TLS_SERVER_NAME;
  return { tls, ...(config.TEMPORAL_API_KEY ? { apiKey: config.TEMPORAL_API_KEY } : {}) };
}

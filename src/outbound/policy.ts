// Where the service may connect (docs/security.md "Outbound requests"): public addresses, the
// operator's OUTBOUND_ALLOW_CIDRS, and never the service's own listeners on any local address.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Config } from '../config';
import { effectiveIp, inCidr, parseCidr, parseIp, sameIp, specialPurpose, type Ip } from './addresses';

export type OutboundConfig = Pick<Config, 'OUTBOUND_ALLOW_CIDRS' | 'PORT' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_EMBEDDED_PORT' | 'TEMPORAL_UI_PORT' | 'DATABASE_URL'>;

/** The policy refuses the target: retrying cannot help. */
export class OutboundRefused extends Error {}
/** DNS, connection, timeout or reading failed: a later attempt may succeed. */
export class OutboundFailed extends Error {}

export const OPERATOR_HINT = 'an operator can allow addresses with OUTBOUND_ALLOW_CIDRS';

const DNS_TIMEOUT_MS = 5_000;

/** Ports this process listens on that the configuration does not name (PORT=0, the embedded database, ...). */
const registered = new Set<number>();

export function registerOwnListener(port: number | string | undefined): void {
  const n = Number(port);
  if (Number.isInteger(n) && n > 0) registered.add(n);
}

function ownPorts(config: OutboundConfig): Set<number> {
  const ports = new Set(registered);
  const add = (p: unknown) => {
    const n = Number(p);
    if (Number.isInteger(n) && n > 0) ports.add(n);
  };
  add(config.PORT);
  add(config.TEMPORAL_UI_PORT);
  if (!config.TEMPORAL_ADDRESS) add(config.TEMPORAL_EMBEDDED_PORT);
  else add(/:(\d+)$/.exec(config.TEMPORAL_ADDRESS)?.[1]);
  if (config.DATABASE_URL) add(safeUrl(config.DATABASE_URL)?.port || 5432);
  return ports;
}

const safeUrl = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

const LOCAL = ['127.0.0.0/8', '0.0.0.0/8', '::1/128', '::/128'].map((c) => parseCidr(c)!);
let interfaces: { at: number; ips: Ip[] } | undefined;

/** The kernel delivers a connection to this address to a socket of this machine. */
function isLocal(ip: Ip): boolean {
  if (!interfaces || Date.now() - interfaces.at > 10_000) {
    const ips = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => parseIp(i.address)).filter((i): i is Ip => i !== null));
    interfaces = { at: Date.now(), ips };
  }
  return [ip, effectiveIp(ip)].some((a) => LOCAL.some((c) => inCidr(a, c)) || interfaces!.ips.some((i) => sameIp(i, a)));
}

export interface Address {
  address: string;
  family: number;
}

/** The addresses the host stands for (a literal is itself); OutboundFailed when DNS does not answer in time. */
export async function resolveHost(host: string, deadline = Date.now() + DNS_TIMEOUT_MS): Promise<Address[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OutboundFailed(`DNS lookup of ${host} timed out`)), Math.max(0, Math.min(DNS_TIMEOUT_MS, deadline - Date.now())));
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    if (!found.length) throw new OutboundFailed(`DNS lookup of ${host} answered no address`);
    return found;
  } catch (err) {
    if (err instanceof OutboundFailed) throw err;
    throw new OutboundFailed(`DNS lookup of ${host} failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

export type Verdict = { kind: 'public' } | { kind: 'allowed' } | { kind: 'refused'; why: string } | { kind: 'own'; why: string };

/** What the policy says of one address the host resolved to. */
export function judge(config: OutboundConfig, host: string, address: string, port: number): Verdict {
  const ip = parseIp(address);
  const shown = host === address ? address : `${host} resolves to ${address}`;
  if (!ip) return { kind: 'refused', why: `${shown}, not an IP address` };
  if (isLocal(ip) && ownPorts(config).has(port)) return { kind: 'own', why: `${shown}, port ${port}: one of this service's own listeners, never a target` };
  if (config.OUTBOUND_ALLOW_CIDRS.some((c) => inCidr(ip, c))) return { kind: 'allowed' };
  const why = specialPurpose(ip);
  return why ? { kind: 'refused', why: host === address ? `${address} is ${why}` : `${shown} (${why})` } : { kind: 'public' };
}

/**
 * The addresses may all be used, or OutboundRefused naming the first that may not. `must`
 * starts the message ("must be a public address"); answers whether every one is the operator's.
 */
export function admit(config: OutboundConfig, host: string, port: number, addresses: Address[], must: string): { allAllowed: boolean } {
  let allAllowed = addresses.length > 0;
  for (const { address } of addresses) {
    const v = judge(config, host, address, port);
    if (v.kind === 'own') throw new OutboundRefused(v.why);
    if (v.kind === 'refused') throw new OutboundRefused(`${must}; ${v.why} (${OPERATOR_HINT})`);
    if (v.kind === 'public') allAllowed = false;
  }
  return { allAllowed };
}

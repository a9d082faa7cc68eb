// Endpoint safety (docs/webhooks.md "Endpoint safety"): a webhook's url_endpoint is an absolute
// https URL whose host is not, and does not resolve to, an address inside a private network,
// unless the organisation allows private endpoints. Checked when the URL is written and again
// at every delivery, on the address the request then connects to (no DNS rebinding).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalid } from '../errors';

type Family = 'ipv4' | 'ipv6';

/** Each refused range with the word the refusal uses. */
const RANGES: Array<[Family, string, number, string]> = [
  ['ipv4', '0.0.0.0', 8, 'unspecified'],
  ['ipv4', '10.0.0.0', 8, 'private'],
  ['ipv4', '100.64.0.0', 10, 'carrier-grade NAT'],
  ['ipv4', '127.0.0.0', 8, 'loopback'],
  ['ipv4', '169.254.0.0', 16, 'link-local'],
  ['ipv4', '172.16.0.0', 12, 'private'],
  ['ipv4', '192.0.0.0', 24, 'reserved'],
  ['ipv4', '192.168.0.0', 16, 'private'],
  ['ipv4', '198.18.0.0', 15, 'benchmarking'],
  ['ipv4', '224.0.0.0', 4, 'multicast'],
  ['ipv4', '240.0.0.0', 4, 'reserved'],
  ['ipv6', '::', 127, 'unspecified or loopback'],
  ['ipv6', '::', 96, 'IPv4-compatible'],
  ['ipv6', '64:ff9b::', 96, 'NAT64'],
  ['ipv6', 'fc00::', 7, 'unique-local'],
  ['ipv6', 'fe80::', 10, 'link-local'],
  ['ipv6', 'fec0::', 10, 'site-local'],
  ['ipv6', 'ff00::', 8, 'multicast'],
];

const LISTS = RANGES.map(([family, net, bits, why]) => {
  const list = new BlockList();
  list.addSubnet(net, bits, family);
  return { family, list, why };
});

/** Why the address may not be a webhook's target, or null when it is a public address. */
export function refusedAddress(address: string): string | null {
  let family: Family;
  if (isIP(address) === 4) family = 'ipv4';
  else if (isIP(address) === 6) family = 'ipv6';
  else return 'not an IP address';
  if (family === 'ipv6') {
    const mapped = mappedV4(address);
    if (mapped) [address, family] = [mapped, 'ipv4'];
  }
  for (const r of LISTS) if (r.family === family && r.list.check(address, family)) return r.why;
  return null;
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:a.b.c.d in any spelling). */
function mappedV4(address: string): string | null {
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!m) return null;
  const hi = parseInt(m[1], 16);
  const lo = parseInt(m[2], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** The URL, parsed, when its form is acceptable: absolute https (or http when private endpoints are allowed), no credentials. */
export function parseEndpoint(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('url_endpoint', 'url_endpoint: must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw invalid('url_endpoint', allowPrivate ? 'url_endpoint: must be an http or https URL' : 'url_endpoint: must be an https URL (http is allowed only with allow_private_webhook_endpoints)');
  }
  if (url.username || url.password) throw invalid('url_endpoint', 'url_endpoint: must not carry credentials; use url_auth');
  return url;
}

/** The host without IPv6 brackets. */
export const hostOf = (url: URL) => (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname);

/** Every address the URL's host stands for (the literal itself, or what DNS answers). */
export async function resolveHost(url: URL): Promise<Array<{ address: string; family: number }>> {
  const host = hostOf(url);
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  return await lookup(host, { all: true, verbatim: true });
}

/**
 * On write: the URL's form, and unless private endpoints are allowed, every address its host
 * resolves to. 400 naming url_endpoint; a host that does not resolve is refused too.
 */
export async function checkEndpoint(text: string, allowPrivate: boolean): Promise<string> {
  const url = parseEndpoint(text, allowPrivate);
  if (allowPrivate) return url.href;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await resolveHost(url);
  } catch {
    throw invalid('url_endpoint', `url_endpoint: the host ${hostOf(url)} does not resolve`);
  }
  for (const { address } of addresses) {
    const why = refusedAddress(address);
    if (why) throw invalid('url_endpoint', `url_endpoint: ${hostOf(url)} is or resolves to ${address} (${why}); set allow_private_webhook_endpoints to allow it`);
  }
  return url.href;
}

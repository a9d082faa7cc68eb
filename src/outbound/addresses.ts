// IP addresses as numbers, CIDR ranges, and the special-purpose ranges outbound requests never
// reach (docs/security.md "Outbound requests"). Node's BlockList is not used: it matches an
// IPv4-mapped IPv6 address against IPv4 rules, so allowing 127.0.0.1/32 would allow
// ::ffff:127.0.0.1 too, and the operator's list must mean exactly what it says.
import { isIP } from 'node:net';

export interface Ip {
  family: 4 | 6;
  value: bigint;
}

export interface Cidr extends Ip {
  bits: number;
  text: string;
}

const width = (family: 4 | 6) => (family === 4 ? 32 : 128);

/** The address, or null when the text is not one (an IPv6 zone, `fe80::1%eth0`, is dropped). */
export function parseIp(text: string): Ip | null {
  const plain = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 4) return { family: 4, value: v4(plain) };
  if (family === 6) return { family: 6, value: v6(plain) };
  return null;
}

function v4(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6(text: string): bigint {
  let s = text.toLowerCase();
  // A trailing dotted quad (::ffff:1.2.3.4) is two groups.
  const dot = s.lastIndexOf('.');
  if (dot !== -1) {
    const at = s.lastIndexOf(':');
    const quad = v4(s.slice(at + 1));
    s = `${s.slice(0, at + 1)}${(quad >> 16n).toString(16)}:${(quad & 0xffffn).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** `a.b.c.d/n` or `v6/n` (a bare address is one address); host bits are cleared. Null when invalid. */
export function parseCidr(text: string): Cidr | null {
  const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(text.trim());
  const ip = m && parseIp(m[1]);
  if (!ip || m[1].includes('%') || m[1].startsWith('[')) return null;
  const bits = m[2] === undefined ? width(ip.family) : Number(m[2]);
  if (bits > width(ip.family)) return null;
  return { family: ip.family, value: ip.value & mask(ip.family, bits), bits, text: `${m[1]}/${bits}` };
}

function mask(family: 4 | 6, bits: number): bigint {
  const all = (1n << BigInt(width(family))) - 1n;
  return all ^ ((1n << BigInt(width(family) - bits)) - 1n);
}

export function inCidr(ip: Ip, cidr: Cidr): boolean {
  return ip.family === cidr.family && (ip.value & mask(cidr.family, cidr.bits)) === cidr.value;
}

const range = (text: string, why: string) => ({ cidr: parseCidr(text)!, why });

/** Refused unless the operator allows them; the more specific first, so the reason is precise. */
const SPECIAL = [
  range('255.255.255.255/32', 'broadcast'),
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::ffff:0:0/96', 'IPv4-mapped'),
  range('::/96', 'IPv4-compatible'),
  range('64:ff9b::/96', 'NAT64'),
  range('64:ff9b:1::/48', 'NAT64'),
  range('100::/64', 'discard-only'),
  range('2001::/32', 'Teredo'),
  range('2001:db8::/32', 'documentation'),
  range('2001::/23', 'reserved'),
  range('2002::/16', '6to4'),
  range('3fff::/20', 'documentation'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

const GLOBAL_UNICAST = parseCidr('2000::/3')!;

/** Why the address is not a public one, or null when it is. */
export function specialPurpose(ip: Ip): string | null {
  for (const r of SPECIAL) if (inCidr(ip, r.cidr)) return r.why;
  if (ip.family === 6 && !inCidr(ip, GLOBAL_UNICAST)) return 'not global unicast';
  return null;
}

const V4_IN_V6 = [parseCidr('::ffff:0:0/96')!, parseCidr('::/96')!];

/** The IPv4 address an IPv4-mapped or -compatible IPv6 one reaches (the kernel connects to it), else the address itself. */
export function effectiveIp(ip: Ip): Ip {
  if (ip.family === 6 && V4_IN_V6.some((c) => inCidr(ip, c))) return { family: 4, value: ip.value & 0xffffffffn };
  return ip;
}

export const sameIp = (a: Ip, b: Ip) => a.family === b.family && a.value === b.value;

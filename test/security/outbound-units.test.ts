// Pure parts of the outbound gateway (docs/security.md "Outbound requests"): the special-purpose
// ranges, CIDR parsing, and OUTBOUND_ALLOW_CIDRS validation.
import { ConfigError, loadConfig } from '../../src/config';
import { inCidr, parseCidr, parseIp, specialPurpose } from '../../src/outbound/addresses';

const why = (address: string) => specialPurpose(parseIp(address)!);

test('specialPurpose: every non-public range is named, public addresses are null', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.2', 'loopback'], ['10.0.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'], ['169.254.169.254', 'link-local'], ['224.0.0.251', 'multicast'], ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'], ['240.0.0.1', 'reserved'], ['192.0.0.8', 'reserved'], ['198.18.0.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'], ['198.51.100.1', 'documentation'], ['203.0.113.10', 'documentation'],
    ['::', 'unspecified'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'IPv4-mapped'], ['::ffff:8.8.8.8', 'IPv4-mapped'], ['::7f00:1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'], ['64:ff9b:1::1', 'NAT64'], ['2002:7f00:1::', '6to4'], ['2001:0:4136:e378::1', 'Teredo'],
    ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'], ['2001:10::1', 'reserved'], ['100::1', 'discard-only'],
    ['fc00::1', 'unique-local'], ['fd12:3456::1', 'unique-local'], ['fe80::1', 'link-local'], ['fec0::1', 'site-local'], ['ff02::1', 'multicast'],
    ['5f00::1', 'not global unicast'], ['4000::1', 'not global unicast'],
  ];
  for (const [address, reason] of refused) expect([address, why(address)]).toEqual([address, reason]);
  for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '1.1.1.1', '2001:4860:4860::8888', '2606:4700::1111']) expect([a, why(a)]).toEqual([a, null]);
});

test('parseCidr: IPv4 and IPv6, host bits cleared, a bare address is one address; families never mix', () => {
  expect(parseCidr('127.0.0.1/8')).toMatchObject({ family: 4, bits: 8 });
  expect(inCidr(parseIp('127.255.0.1')!, parseCidr('127.0.0.1/8')!)).toBe(true);
  expect(inCidr(parseIp('127.0.0.2')!, parseCidr('127.0.0.1')!)).toBe(false);
  expect(inCidr(parseIp('fd00::5')!, parseCidr('fd00::/8')!)).toBe(true);
  expect(inCidr(parseIp('::ffff:127.0.0.1')!, parseCidr('127.0.0.0/8')!)).toBe(false);
  for (const bad of ['', '127.0.0.1/33', '::1/129', 'localhost/8', '10.0.0.0/-1', '[::1]/128', 'fe80::1%eth0/64']) expect([bad, parseCidr(bad)]).toEqual([bad, null]);
});

test('OUTBOUND_ALLOW_CIDRS: empty by default; a bad entry stops the start naming the variable', () => {
  expect(loadConfig({}).OUTBOUND_ALLOW_CIDRS).toEqual([]);
  expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: ' 127.0.0.1/32 , fd00::/8' }).OUTBOUND_ALLOW_CIDRS.map((c) => c.text)).toEqual(['127.0.0.1/32', 'fd00::/8']);
  expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32,10.0.0.0/33' })).toThrow(ConfigError);
  expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: 'intranet' })).toThrow('Invalid configuration: OUTBOUND_ALLOW_CIDRS must be comma-separated CIDR ranges such as 127.0.0.1/32,fd00::/8; "intranet" is not one');
});

import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EnvError } from '../../packages/foundation/src/config/envChecks.mts';
import { parseSettings } from '../../packages/foundation/src/config/settings.mts';
import { inBlocks, ipAddress, trustedProxies } from '../../packages/foundation/src/config/trustedProxies.mts';

// TRUSTED_PROXY_ADDRESSES (packages/foundation/src/config/trustedProxies.mts): the reverse proxies whose
// X-Forwarded-For is read, and the one strict reading of an address that the setting, the peer and the header share.
// Node's own parser (node:net) is the reference for what an address is and which block holds it.

const valid = [
  '0.0.0.0',
  '127.0.0.1',
  '203.0.113.7',
  '255.255.255.255',
  '::',
  '::1',
  '2001:db8::1',
  '2001:DB8:0:0:0:0:0:1',
  '2001:0db8:0001:0002:0003:0004:0005:0006',
  '1:2:3:4:5:6:7::',
  '::2:3:4:5:6:7:8',
  '::ffff:203.0.113.7',
  '64:ff9b::198.51.100.1',
  '1:2:3:4:5:6:1.2.3.4',
];
const invalid = [
  '',
  ' ',
  'unknown',
  '1.2.3',
  '1.2.3.4.5',
  '256.0.0.1',
  '01.2.3.4',
  '1.2.3.4 ',
  '1.2.3.4:8080',
  '[::1]',
  '[::1]:8080',
  ':::',
  '1::2::3',
  ':1::',
  '1:',
  '1:2:3:4:5:6:7:8:9',
  '1::2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7',
  '12345::',
  'g::1',
  '1.2.3.4::',
  '::1.2.3',
  '1:2:3:4:5:6:7:1.2.3.4',
  '0x7f.0.0.1',
  `${'1:'.repeat(30)}1`,
];

describe('ipAddress', () => {
  it('takes what Node takes as an address written plainly, and nothing else (no port, brackets or zone)', () => {
    for (const text of valid) expect(isIP(text), text).not.toBe(0);
    for (const text of invalid) expect(isIP(text), text).toBe(0);
    expect(valid.filter((text) => ipAddress(text) === undefined)).toEqual([]);
    expect(invalid.filter((text) => ipAddress(text) !== undefined)).toEqual([]);
    // Node takes a zone, which names an interface of the machine that wrote it: no client's address.
    expect(isIP('fe80::1%eth0')).toBe(6);
    expect(ipAddress('fe80::1%eth0')).toBeUndefined();
  });

  it('reads one address however it is written, IPv4 the same as IPv4-mapped IPv6', () => {
    expect(ipAddress('2001:db8::1')).toEqual(ipAddress('2001:0DB8:0000:0000:0000:0000:0000:0001'));
    expect(ipAddress('203.0.113.7')).toEqual(ipAddress('::ffff:203.0.113.7'));
    expect(ipAddress('203.0.113.7')).toEqual(ipAddress('::ffff:cb00:7107'));
    expect(ipAddress('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipAddress('203.0.113.7')).toEqual([0, 0, 0, 0, 0, 0xffff, 0xcb00, 0x7107]);
    expect(ipAddress('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(ipAddress('1.2.3.4')).not.toEqual(ipAddress('::1.2.3.4'));
  });
});

describe('trustedProxies (TRUSTED_PROXY_ADDRESSES)', () => {
  it('is off unless set: no proxy is trusted', () => {
    expect(trustedProxies(undefined)).toBeUndefined();
    expect(trustedProxies('  ')).toBeUndefined();
    expect(parseSettings({}).trustedProxies).toBeUndefined();
  });

  it('takes addresses and CIDR blocks, IPv4 and IPv6, and holds what Node holds in them', () => {
    const blocks = trustedProxies(' 10.0.0.0/8, 127.0.0.1 ,192.168.4.0/22,fd00::/8,::1,2001:db8:1::/48')!;
    const reference = new BlockList();
    reference.addSubnet('10.0.0.0', 8, 'ipv4');
    reference.addAddress('127.0.0.1', 'ipv4');
    reference.addSubnet('192.168.4.0', 22, 'ipv4');
    reference.addSubnet('fd00::', 8, 'ipv6');
    reference.addAddress('::1', 'ipv6');
    reference.addSubnet('2001:db8:1::', 48, 'ipv6');
    const addresses = [
      ['10.0.0.1', 'ipv4'],
      ['10.255.255.255', 'ipv4'],
      ['11.0.0.1', 'ipv4'],
      ['9.255.255.255', 'ipv4'],
      ['127.0.0.1', 'ipv4'],
      ['127.0.0.2', 'ipv4'],
      ['192.168.7.255', 'ipv4'],
      ['192.168.8.0', 'ipv4'],
      ['192.168.3.255', 'ipv4'],
      ['fd12:3456::1', 'ipv6'],
      ['fe00::1', 'ipv6'],
      ['::1', 'ipv6'],
      ['::2', 'ipv6'],
      ['2001:db8:1:ffff::1', 'ipv6'],
      ['2001:db8:2::1', 'ipv6'],
    ] as const;
    for (const [address, family] of addresses) {
      expect(inBlocks(ipAddress(address)!, blocks), address).toBe(reference.check(address, family));
    }
    // The peer of a server listening on `::` is IPv4-mapped: the same address.
    expect(inBlocks(ipAddress('::ffff:10.1.2.3')!, blocks)).toBe(true);
  });

  it('stops the start with one sentence for an entry that is not an address or a block', () => {
    for (const [value, message] of [
      [
        'nginx',
        /^TRUSTED_PROXY_ADDRESSES must list your reverse proxies' addresses or CIDR blocks, .*"nginx" is not one\.$/,
      ],
      ['10.0.0.0/8,', /"" is not one\./],
      ['10.0.0.0/33', /"10\.0\.0\.0\/33" is not one\./],
      ['::1/129', /"::1\/129" is not one\./],
      ['10.0.0.0/8/8', /is not one\./],
      ['10.0.0.0/', /is not one\./],
      ['10.0.0.1:80', /is not one\./],
      ['10.1.2.3/8', /^TRUSTED_PROXY_ADDRESSES has "10\.1\.2\.3\/8", whose address has bits set past its \/8/],
      ['0.0.0.0/0', /^TRUSTED_PROXY_ADDRESSES has "0\.0\.0\.0\/0", which would let every client name its own address/],
      ['::/0', /which would let every client name its own address/],
    ] as const) {
      expect(() => parseSettings({ TRUSTED_PROXY_ADDRESSES: value }), value).toThrow(EnvError);
      expect(() => parseSettings({ TRUSTED_PROXY_ADDRESSES: value }), value).toThrow(message);
    }
  });
});

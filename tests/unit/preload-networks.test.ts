import { describe, expect, it } from 'vitest';
import { connectionShare, networkOf } from '../../packages/foundation/src/server/preload/networks.mts';

// Which connections count together against a network's share (packages/foundation/src/server/preload/networks.mts).

describe('networkOf', () => {
  it('puts IPv4 peers of one /24 together, and apart from the next /24', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.113.250')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.114.7')).toBe('203.0.114.0/24');
  });

  it('reads an IPv4-mapped IPv6 peer (a dual-stack server) as its IPv4 address', () => {
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('::FFFF:203.0.113.9')).toBe('203.0.113.0/24');
  });

  it('puts IPv6 peers of one /64 together, however the address is spelled', () => {
    const network = '2001:db8:0:1::/64';
    expect(networkOf('2001:db8:0:1::1')).toBe(network);
    expect(networkOf('2001:db8:0:1:ffff:ffff:ffff:fffe')).toBe(network);
    expect(networkOf('2001:0DB8:0000:0001:0:0:0:9')).toBe(network);
    expect(networkOf('2001:db8:0:1:1:2:192.0.2.1')).toBe(network);
    expect(networkOf('2001:db8::1:0:0:7')).toBe('2001:db8:0:0::/64');
    expect(networkOf('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
  });

  it('reads a compressed or zoned address in full', () => {
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('2001:db8:1:2:3::')).toBe('2001:db8:1:2::/64');
  });
});

describe('connectionShare', () => {
  it('gives a network a quarter of the connections, at least one', () => {
    expect(connectionShare(4096)).toBe(1024);
    expect(connectionShare(64)).toBe(16);
    expect(connectionShare(2)).toBe(1);
  });
});

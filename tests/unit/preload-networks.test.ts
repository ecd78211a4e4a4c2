import { describe, expect, it } from 'vitest';
import { connectionShare, networkOf } from '../../packages/foundation/src/server/preload/networks.mts';

// The network a peer counts as (packages/foundation/src/server/preload/networks.mts): its /24 or /64, and its share of
// the connections.

describe('networkOf', () => {
  it('counts an IPv4 peer by its /24, written plainly or mapped into IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.113.250')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.114.7')).toBe('203.0.114.0/24');
  });

  it('counts an IPv6 peer by its /64, however it is written', () => {
    const network = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9']) {
      expect(networkOf(address)).toBe(network);
    }
    expect(networkOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('2001:db8::1:2:3:4')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps what is no address as it is (a socket already closed has none)', () => {
    expect(networkOf('')).toBe('');
  });
});

describe('connectionShare', () => {
  it('gives a network a quarter of the connections, at least one', () => {
    expect(connectionShare(4096)).toBe(1024);
    expect(connectionShare(64)).toBe(16);
    expect(connectionShare(2)).toBe(1);
  });
});

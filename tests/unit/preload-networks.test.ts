import { describe, expect, it } from 'vitest';
import { trustedProxies } from '../../packages/foundation/src/config/trustedProxies.mts';
import {
  bodyNetwork,
  connectionShare,
  forwardedClient,
  heldByNetwork,
  networkOf,
} from '../../packages/foundation/src/server/preload/networks.mts';

// The network a peer counts as (packages/foundation/src/server/preload/networks.mts): its /24 or /64, and its share of
// the connections; a body's, behind a reverse proxy the operator trusts, the network of the client the proxy names.

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

describe('forwardedClient', () => {
  it('takes the last address, the one the proxy appended, never one the client wrote before it', () => {
    expect(forwardedClient('203.0.113.7')).toBe('203.0.113.7');
    expect(forwardedClient('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(forwardedClient('198.51.100.1,203.0.113.7')).toBe('203.0.113.7');
    // Node joins a repeated header with ", ": the last line's last address is still last.
    expect(forwardedClient('198.51.100.1, 10.0.0.1, 2001:db8::7')).toBe('2001:db8::7');
  });

  it('names no client when the last entry is not an address written plainly', () => {
    for (const header of [
      undefined,
      '',
      ' ',
      '203.0.113.7,',
      '203.0.113.7, unknown',
      '203.0.113.7:4711',
      '[2001:db8::7]',
    ]) {
      expect(forwardedClient(header), JSON.stringify(header)).toBeUndefined();
    }
  });
});

describe('bodyNetwork', () => {
  const proxies = trustedProxies('10.0.0.0/8,::1');

  it("counts a body by its peer's network when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(bodyNetwork('10.0.0.2', '203.0.113.7', undefined)).toBe('10.0.0.0/24');
    expect(bodyNetwork('10.0.0.2', undefined, undefined)).toBe('10.0.0.0/24');
  });

  it('counts a body from a trusted proxy by the network of the client it names', () => {
    expect(bodyNetwork('10.0.0.2', '203.0.113.7', proxies)).toBe('203.0.113.0/24');
    expect(bodyNetwork('::ffff:10.0.0.2', '198.51.100.1, 203.0.113.7', proxies)).toBe('203.0.113.0/24');
    expect(bodyNetwork('::1', '2001:db8:1:2::7', proxies)).toBe('2001:db8:1:2::/64');
    // Two clients behind one proxy are two networks.
    expect(bodyNetwork('10.0.0.2', '203.0.113.7', proxies)).not.toBe(bodyNetwork('10.0.0.2', '198.51.100.7', proxies));
  });

  it("keeps the peer's network when the proxy names no client, and ignores the header from any other peer", () => {
    expect(bodyNetwork('10.0.0.2', undefined, proxies)).toBe('10.0.0.0/24');
    expect(bodyNetwork('10.0.0.2', '203.0.113.7, garbage', proxies)).toBe('10.0.0.0/24');
    expect(bodyNetwork('192.0.2.9', '203.0.113.7', proxies)).toBe('192.0.2.0/24');
    expect(bodyNetwork('', '203.0.113.7', proxies)).toBe('');
  });
});

describe('what each network holds', () => {
  it('adds and takes back per network; a network never seen holds nothing', () => {
    const held = heldByNetwork();
    held.add('10.0.0.0/24', 3);
    held.add('10.0.0.0/24', 2);
    held.add('192.0.2.0/24', 1);
    expect([held.of('10.0.0.0/24'), held.of('192.0.2.0/24'), held.of('198.51.100.0/24')]).toEqual([5, 1, 0]);
    held.add('10.0.0.0/24', -5);
    expect(held.of('10.0.0.0/24')).toBe(0);
  });
});

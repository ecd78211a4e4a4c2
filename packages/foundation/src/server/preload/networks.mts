// Which peers the server counts as one client when it shares out what it holds (bodies.mts, connections.mts): not an
// address, which a holder of a block has many of, but the block. The peer is the socket's; X-Forwarded-For is anyone's
// to write, and is read only from a reverse proxy the operator trusts (TRUSTED_PROXY_ADDRESSES), only its last address.
import { inBlocks, ipAddress, type AddressBlock } from '../../config/trustedProxies.mts';

/**
 * The network a peer's address belongs to: its /24 for IPv4 and its /64 for IPv6, the blocks one holder gets, so that
 * a few addresses (or an IPv6 prefix's countless ones) count as one client.
 */
export function networkOf(address: string): string {
  // A link-local peer names its interface (`fe80::1%eth0`), which is no part of its network.
  const groups = ipAddress(address.split('%', 1)[0] ?? '');
  if (!groups) return address;
  const [, , , , , mapped, high = 0, low = 0] = groups;
  if (groups.slice(0, 5).every((group) => group === 0) && mapped === 0xffff) {
    return `${high >> 8}.${high & 0xff}.${low >> 8}.0/24`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * The connections one network may hold: a quarter of the server's. Four networks are needed to fill the server, and
 * one is enough for a proxy, a carrier's NAT or an office, whose users share an address: a quarter of 4,096 is more
 * requests at once than one instance serves (docs/reliability-and-security.md, "Connections").
 */
export const connectionShare = (total: number): number => Math.max(1, Math.floor(total / 4));

/** What each network holds (bytes, connections): a network holding nothing has no entry, so the map stays bounded. */
export function heldByNetwork() {
  const held = new Map<string, number>();
  return {
    of: (network: string): number => held.get(network) ?? 0,
    add(network: string, amount: number): void {
      const total = (held.get(network) ?? 0) + amount;
      if (total === 0) held.delete(network);
      else held.set(network, total);
    },
  };
}

/**
 * The client a reverse proxy names: the last address of X-Forwarded-For, the one the proxy appended (those before it are
 * whatever the client wrote). Undefined when there is no header, or its last entry is not an address written plainly.
 */
export function forwardedClient(forwardedFor: string | undefined): string | undefined {
  if (forwardedFor === undefined) return undefined;
  const last = forwardedFor.slice(forwardedFor.lastIndexOf(',') + 1).trim();
  return ipAddress(last) === undefined ? undefined : last;
}

/**
 * The network a body is counted against: the peer's, or, when the peer is in `trustedProxies`, that of the client the
 * proxy names (forwardedClient), if it names one. Connections stay the peer's: they open before any header.
 */
export function bodyNetwork(
  peer: string,
  forwardedFor: string | undefined,
  trustedProxies: readonly AddressBlock[] | undefined,
): string {
  if (trustedProxies) {
    const address = ipAddress(peer);
    const client =
      address !== undefined && inBlocks(address, trustedProxies) ? forwardedClient(forwardedFor) : undefined;
    if (client !== undefined) return networkOf(client);
  }
  return networkOf(peer);
}

// Which network a peer belongs to, and how many of the server's connections one network may hold. The peer is the TCP
// connection's remote address only: a header such as X-Forwarded-For is the client's word, and anyone can write it.
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network of a peer address: its /24 for IPv4 (an IPv4-mapped IPv6 address included, as a dual-stack server sees
 * IPv4 peers), its /64 for IPv6. A /64 is what an ISP gives one customer's link, and a /24 the smallest block routed
 * on the Internet: one holder's addresses, a holder with many addresses among them, count as one.
 */
export function networkOf(address: string): string {
  const ipv4 = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIPv4(ipv4)) return `${ipv4.slice(0, ipv4.lastIndexOf('.'))}.0/24`;
  if (!isIPv6(address)) return address;
  // The first four groups of the eight, with `::` spelled out (an embedded IPv4 address fills the last two).
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const groups = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['', ''] : [group])) : [];
  const known = groups(head);
  const all =
    tail === undefined
      ? known
      : [...known, ...Array(8 - known.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The connections one network may hold: a quarter of the server's. Four networks are needed to fill the server, and
 * one is enough for a proxy, a carrier's NAT or an office, whose users share an address: a quarter of 4,096 is more
 * requests at once than one instance serves (docs/reliability-and-security.md, "Connections").
 */
export const connectionShare = (total: number): number => Math.max(1, Math.floor(total / 4));

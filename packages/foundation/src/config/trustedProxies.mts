// The reverse proxies the operator declares trusted (TRUSTED_PROXY_ADDRESSES): the blocks their addresses are in, and
// the strict reading of an IP address that the setting, the peer and X-Forwarded-For all go through
// (../server/preload/networks.mts), so that the three cannot disagree on what an address is. Part of the server's
// settings (./settings.mts): TypeScript Node runs as it is, importing only such files.
import { EnvError } from './envChecks.mts';

/** An address as its eight 16-bit groups, IPv4 ones mapped into IPv6 (::ffff:a.b.c.d). */
export type Address = readonly number[];

/** A block of addresses: those whose first `prefix` bits are those of `base`. */
export interface AddressBlock {
  base: Address;
  prefix: number;
}

/** The longest text of an address: `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`. */
const maxAddressLength = 45;
/** A decimal of 1 to 3 digits without a leading zero, which some parsers read as octal. */
const decimal = /^(?:0|[1-9]\d{0,2})$/;
const hexGroup = /^[0-9a-f]{1,4}$/i;

/** A dotted IPv4 address as two 16-bit groups. */
function ipv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const part of parts) {
    if (!decimal.test(part) || Number(part) > 255) return undefined;
    octets.push(Number(part));
  }
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  return [a * 256 + b, c * 256 + d];
}

/** Appends each hex group to `groups`; false when one is not a group of 1 to 4 hex digits. */
function appendHexGroups(written: string[], groups: number[]): boolean {
  for (const group of written) {
    if (!hexGroup.test(group)) return false;
    groups.push(Number.parseInt(group, 16));
  }
  return true;
}

/** An IPv6 address: eight groups, `::` for a run of zero groups, a dotted IPv4 address as the last two. */
function ipv6(text: string): Address | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const [head = [], tail] = halves.map((half) => (half === '' ? [] : half.split(':')));
  const written = tail ?? head;
  const dotted = written.at(-1)?.includes('.') ? ipv4(written.pop()!) : [];
  if (dotted === undefined) return undefined;
  const zeros = 8 - head.length - (tail?.length ?? 0) - dotted.length;
  if (tail === undefined ? zeros !== 0 : zeros < 1) return undefined;
  const groups: number[] = [];
  if (!appendHexGroups(head, groups)) return undefined;
  for (let i = 0; i < zeros; i++) groups.push(0);
  if (!appendHexGroups(tail ?? [], groups)) return undefined;
  groups.push(...dotted);
  return groups;
}

/**
 * An IP address, or undefined when the text is not one address written plainly: no port, no brackets, no zone
 * (`%eth0`), no leading zeros. Work is bounded by the length, checked first.
 */
export function ipAddress(text: string): Address | undefined {
  if (text.length > maxAddressLength) return undefined;
  if (text.includes(':')) return ipv6(text);
  const v4 = ipv4(text);
  return v4 && [0, 0, 0, 0, 0, 0xffff, ...v4];
}

/** The mask of group `index` for the first `prefix` bits of an address. */
const groupMask = (index: number, prefix: number): number =>
  (0xffff << (16 - Math.min(16, Math.max(0, prefix - 16 * index)))) & 0xffff;

/** Whether an address is in one of the blocks. */
export const inBlocks = (address: Address, blocks: readonly AddressBlock[]): boolean =>
  blocks.some(({ base, prefix }) =>
    base.every((group, index) => (address[index]! & groupMask(index, prefix)) === group),
  );

const setting = 'TRUSTED_PROXY_ADDRESSES';

/** One entry of the setting: an address alone, or a block in CIDR notation (`10.0.0.0/8`, `fd00::/8`). */
function trustedBlock(entry: string): AddressBlock {
  const [written = '', prefixText, ...rest] = entry.split('/');
  const address = ipAddress(written);
  const bits = written.includes(':') ? 128 : 32;
  const prefix = prefixText === undefined ? bits : decimal.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (address === undefined || rest.length > 0 || !(prefix <= bits)) {
    throw new EnvError(
      `${setting} must list your reverse proxies' addresses or CIDR blocks, separated by commas (e.g. 10.0.0.0/8,127.0.0.1); ${JSON.stringify(entry)} is not one.`,
    );
  }
  if (prefix === 0) {
    throw new EnvError(
      `${setting} has ${JSON.stringify(entry)}, which would let every client name its own address: list only your reverse proxies.`,
    );
  }
  // An IPv4 block's prefix counts in the mapped address, after its 96 bits of ::ffff:
  const block = { base: [] as number[], prefix: prefix + 128 - bits };
  for (const [index, group] of address.entries()) block.base.push(group & groupMask(index, block.prefix));
  if (block.base.some((group, index) => group !== address[index])) {
    throw new EnvError(
      `${setting} has ${JSON.stringify(entry)}, whose address has bits set past its /${prefix}: write the block's first address, or the proxy's address alone.`,
    );
  }
  return block;
}

/**
 * TRUSTED_PROXY_ADDRESSES: the peers whose X-Forwarded-For names the client a body is counted against
 * (docs/reliability-and-security.md, "Connections"); unset or empty, none, and no header is read.
 */
export function trustedProxies(value: string | undefined): AddressBlock[] | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  return text.split(',').map((entry) => trustedBlock(entry.trim()));
}

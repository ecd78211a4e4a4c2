// The reverse proxies the operator declares trusted (TRUSTED_PROXY_ADDRESSES): the blocks their addresses are in, and
// the strict reading of an IP address that the setting, the peer and X-Forwarded-For all go through
// (../server/preload/networks.mts), so that the three cannot disagree on what an address is. Part of the server's
// settings (./settings.mts): TypeScript Node runs as it is, importing only such files.
import { EnvError } from './envChecks.mts';

/** A block of addresses, IPv4 ones as IPv4-mapped IPv6 (::ffff:a.b.c.d): an address is in it when masked it is base. */
export interface AddressBlock {
  base: bigint;
  mask: bigint;
}

/** The longest text of an address: `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`. */
const maxAddressLength = 45;
/** Where IPv4 addresses sit among IPv6 ones (RFC 4291 §2.5.5.2). */
const ipv4Mapped = 0xffffn << 32n;
/** A decimal of 1 to 3 digits without a leading zero, which some parsers read as octal. */
const decimal = /^(?:0|[1-9]\d{0,2})$/;
const hexGroup = /^[0-9a-f]{1,4}$/i;

/** A dotted IPv4 address's 32 bits. */
function ipv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!decimal.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** An IPv6 address's 128 bits: eight groups, `::` for a run of zero groups, a dotted IPv4 address as the last two. */
function ipv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const [head = [], tail] = halves.map((half) => (half === '' ? [] : half.split(':')));
  const written = tail ?? head;
  if (written.at(-1)?.includes('.')) {
    const dotted = ipv4(written.pop()!);
    if (dotted === undefined) return undefined;
    written.push((dotted >> 16n).toString(16), (dotted & 0xffffn).toString(16));
  }
  const zeros = 8 - head.length - (tail?.length ?? 0);
  if (tail === undefined ? zeros !== 0 : zeros < 1) return undefined;
  let value = 0n;
  for (const group of [...head, ...Array<string>(zeros).fill('0'), ...(tail ?? [])]) {
    if (!hexGroup.test(group)) return undefined;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
}

/**
 * An IP address's 128 bits, IPv4 ones mapped into IPv6, or undefined when the text is not one address written plainly:
 * no port, no brackets, no zone (`%eth0`), no leading zeros. Work is bounded by the length, checked first.
 */
export function ipAddress(text: string): bigint | undefined {
  if (text.length > maxAddressLength) return undefined;
  if (text.includes(':')) return ipv6(text);
  const v4 = ipv4(text);
  return v4 === undefined ? undefined : ipv4Mapped | v4;
}

/** Whether an address (ipAddress) is in one of the blocks. */
export const inBlocks = (address: bigint, blocks: readonly AddressBlock[]): boolean =>
  blocks.some(({ base, mask }) => (address & mask) === base);

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
  const maskBits = BigInt(128 - bits + prefix);
  const mask = ((1n << maskBits) - 1n) << (128n - maskBits);
  if ((address & mask) !== address) {
    throw new EnvError(
      `${setting} has ${JSON.stringify(entry)}, whose address has bits set past its /${prefix}: write the block's first address, or the proxy's address alone.`,
    );
  }
  return { base: address, mask };
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

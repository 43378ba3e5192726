import { isIP } from 'node:net';

/** An IP address in the form the egress policy judges it. */
export interface NormalisedIp {
  /** IPv4 as dotted quad (also for IPv4-mapped IPv6 input); IPv6 compressed and in lower case. */
  address: string;
  family: 'ipv4' | 'ipv6';
  /** For a NAT64 address (`64:ff9b::/96`): the IPv4 address it embeds, which is what it reaches. */
  nat64?: string;
}

/**
 * Parses an IP address as a socket would use it: brackets and an IPv6 zone (`%eth0`) are dropped,
 * an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`) becomes its IPv4 address, and a
 * NAT64 address carries the IPv4 address it embeds. Null when `input` is not an IP address (host
 * names, and shorthands such as `127.1`, are not: they go through name resolution).
 */
export function normaliseIpAddress(input: string): NormalisedIp | null {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':') && text.includes('%')) text = text.slice(0, text.indexOf('%'));
  const version = isIP(text);
  if (version === 4) return { address: text, family: 'ipv4' };
  if (version !== 6) return null;
  const canonical = canonicalIpv6(text);
  if (canonical === null) return null;
  const groups = ipv6Groups(canonical);
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const embedded = [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  if (zero(0, 5) && groups[5] === 0xffff) return { address: embedded, family: 'ipv4' };
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) {
    return { address: canonical, family: 'ipv6', nat64: embedded };
  }
  return { address: canonical, family: 'ipv6' };
}

/** The WHATWG serialisation: compressed, lower case, no embedded dotted quad. */
function canonicalIpv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The eight 16-bit groups of a canonical IPv6 address. */
function ipv6Groups(canonical: string): number[] {
  const [head = '', tail] = canonical.split('::');
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - first.length - last.length).fill('0');
  return [...first, ...middle, ...last].map((group) => Number.parseInt(group, 16));
}

import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** One `EGRESS_ALLOW` / `EGRESS_DENY` entry: an address range, or a host name (`*.` for subdomains). */
export type EgressEntry =
  | { kind: 'range'; text: string; network: string; prefix: number; family: 'ipv4' | 'ipv6' }
  | { kind: 'host'; text: string; name: string; subdomains: boolean };

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Parses an entry: an IP address (`10.0.0.5`, `fd00::1`, `[::1]`), a CIDR range (`10.0.0.0/8`,
 * `fd00::/8`), a host name (`intranet.example.com`) or a wildcard for its subdomains only
 * (`*.example.com` matches `a.example.com`, not `example.com`). Throws an Error naming the entry.
 */
export function parseEgressEntry(entry: string): EgressEntry {
  const text = entry.trim();
  const parsed = parseRange(text) ?? parseHost(text);
  if (!parsed) throw new Error(`"${entry}" is not an IP address, CIDR range or host name`);
  return parsed;
}

/**
 * A host name as entries are matched against it: ASCII (punycode), lower case, without the final
 * dot. Null when it is not a host name (an IP address, or something no DNS name can be).
 */
export function normaliseHostName(hostname: string): string | null {
  const ascii = domainToASCII(hostname.trim().replace(/\.$/, ''));
  const labels = ascii.split('.');
  if (!ascii || ascii.length > 253 || !labels.every((label) => LABEL.test(label))) return null;
  // WHATWG reads a name whose last label is numeric as an IPv4 address.
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!)) return null;
  return ascii;
}

function parseRange(text: string): EgressEntry | null {
  const [rawAddress = '', prefixText, ...rest] = text.split('/');
  const address = rawAddress.replace(/^\[(.*)\]$/, '$1');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || address.includes('%')) return null;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  return { kind: 'range', text, network: address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

function parseHost(text: string): EgressEntry | null {
  const subdomains = text.startsWith('*.');
  const name = normaliseHostName(subdomains ? text.slice(2) : text);
  return name ? { kind: 'host', text, name, subdomains } : null;
}

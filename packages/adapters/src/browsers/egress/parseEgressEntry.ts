import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * One `EGRESS_ALLOW` / `EGRESS_DENY` entry: an address range, or a host name (`*.` for subdomains),
 * for every port (`port: null`) or for one.
 */
export type EgressEntry =
  | {
      kind: 'range';
      text: string;
      network: string;
      prefix: number;
      family: 'ipv4' | 'ipv6';
      port: number | null;
    }
  | { kind: 'host'; text: string; name: string; subdomains: boolean; port: number | null };

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
/** `[v6]:port`: an IPv6 address takes a port only in brackets (`::1:80` is an address). */
const BRACKETED_WITH_PORT = /^(\[[^\]]*\]):(\d{1,5})$/;
/** `v4:port`, `v4/prefix:port`, `name:port`, `*.name:port`: one colon, before the port. */
const WITH_PORT = /^([^:[\]]+):(\d{1,5})$/;

/**
 * Parses an entry: an IP address (`10.0.0.5`, `fd00::1`, `[::1]`), a CIDR range (`10.0.0.0/8`,
 * `fd00::/8`), a host name (`intranet.example.com`) or a wildcard for its subdomains only
 * (`*.example.com` matches `a.example.com`, not `example.com`). Any of them but an IPv6 range may
 * end with `:port` to cover that port only (`127.0.0.2:8080`, `[::1]:5173`, `10.0.0.0/8:443`,
 * `intranet.example.com:8443`); without one it covers every port. Throws an Error naming the entry.
 */
export function parseEgressEntry(entry: string): EgressEntry {
  const text = entry.trim();
  const split = splitPort(text);
  const parsed = split && (parseRange(text, split) ?? parseHost(text, split));
  if (!parsed)
    throw new Error(`"${entry}" is not an IP address, CIDR range or host name (with an optional :port)`);
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

interface Split {
  target: string;
  port: number | null;
}

/** The entry without its `:port`, and the port; null when the port is out of range. */
function splitPort(text: string): Split | null {
  const match = BRACKETED_WITH_PORT.exec(text) ?? WITH_PORT.exec(text);
  if (!match) return { target: text, port: null };
  const port = Number(match[2]);
  return port >= 1 && port <= 65_535 ? { target: match[1]!, port } : null;
}

function parseRange(text: string, { target, port }: Split): EgressEntry | null {
  const [rawAddress = '', prefixText, ...rest] = target.split('/');
  const address = rawAddress.replace(/^\[(.*)\]$/, '$1');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || address.includes('%')) return null;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  return { kind: 'range', text, network: address, prefix, family: version === 4 ? 'ipv4' : 'ipv6', port };
}

function parseHost(text: string, { target, port }: Split): EgressEntry | null {
  const subdomains = target.startsWith('*.');
  const name = normaliseHostName(subdomains ? target.slice(2) : target);
  return name ? { kind: 'host', text, name, subdomains, port } : null;
}

import { BlockList } from 'node:net';
import { EGRESS_RANGES, type EgressRange } from './egressRanges.ts';
import { type NormalisedIp, normaliseIpAddress } from './normaliseIpAddress.ts';
import { type EgressEntry, normaliseHostName, parseEgressEntry } from './parseEgressEntry.ts';

/** What local browsers may reach beyond the public internet (`EGRESS_*` in the configuration). */
export interface EgressPolicyOptions {
  /**
   * `EGRESS_ALLOW_PRIVATE`: opens the `private` ranges of `EGRESS_RANGES` (RFC 1918, CGNAT, loopback,
   * unique-local, documentation, benchmarking) and the service's own addresses. Unroutable ranges
   * (`0.0.0.0/8`, `::`, multicast, reserved) stay refused, and so do link-local networks and cloud
   * metadata endpoints, which only an `allow` entry opens.
   */
  allowPrivate?: boolean;
  /**
   * `EGRESS_ALLOW`: IPs, CIDR ranges or host names opened despite the built-in refusals, each for
   * every port or, with `:port`, for one (`parseEgressEntry`).
   */
  allow?: readonly string[];
  /** `EGRESS_DENY`: IPs, CIDR ranges or host names (optionally `:port`) always refused, even when allowed. */
  deny?: readonly string[];
  /**
   * The service's own addresses (e.g. from `os.networkInterfaces()`), refused even when public;
   * opened, like loopback, by `allowPrivate` or an `allow` entry.
   */
  ownAddresses?: readonly string[];
}

/**
 * Which kind of rule refused a destination: an `EGRESS_DENY` entry (`deny`), a built-in range of
 * `EGRESS_RANGES` (`range`), one of the service's own addresses (`own-address`), or a target that
 * is no address or host at all (`invalid`). Only `range` and `own-address` are the policy's defaults,
 * which the session's own connect endpoint may pass; a `deny` entry is the operator's word.
 */
export const EGRESS_REFUSAL_RULES = ['deny', 'range', 'own-address', 'invalid'] as const;
/** One of `EGRESS_REFUSAL_RULES`. */
export type EgressRefusalRule = (typeof EGRESS_REFUSAL_RULES)[number];

/** The policy's answer; a refusal's reason names the rule, e.g. `loopback (127.0.0.0/8)`, and `rule` its kind. */
export type EgressVerdict = { allowed: true } | { allowed: false; reason: string; rule: EgressRefusalRule };

interface Matcher<T> {
  item: T;
  list: BlockList;
  /** The one port the entry covers; null for every port. */
  port: number | null;
}

const ALLOWED: EgressVerdict = { allowed: true };
const refuse = (reason: string, rule: EgressRefusalRule): EgressVerdict => ({ allowed: false, reason, rule });

/**
 * Decides which destinations local browsers may reach, by IP address (and by host name for host
 * entries). In order: an `EGRESS_DENY` match refuses; an unroutable range refuses; an `EGRESS_ALLOW`
 * match (address, or the host name the address was resolved from) allows; a built-in range or one of
 * the service's own addresses refuses unless `allowPrivate` opens it; anything else is allowed.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address, NAT64 addresses by their embedded IPv4.
 *
 * An entry with a port (`127.0.0.2:8080`) covers that port only. When the port is not known (a
 * caller that does not pass one), a port-scoped `allow` entry does not apply and a port-scoped
 * `deny` entry does: an unknown port is judged the stricter way.
 */
export class EgressPolicy {
  private readonly allowPrivate: boolean;
  private readonly ownCount: number;
  private readonly allow: EgressEntry[];
  private readonly deny: EgressEntry[];
  private readonly allowRanges: Matcher<string>[];
  private readonly denyRanges: Matcher<string>[];
  private readonly ownAddresses = new BlockList();
  private readonly ranges: Matcher<EgressRange>[] = EGRESS_RANGES.map((range) => {
    const [network = '', prefix] = range.cidr.split('/');
    const family = network.includes(':') ? 'ipv6' : 'ipv4';
    return { item: range, list: subnet(network, Number(prefix), family), port: null };
  });

  /** Throws an Error naming the first invalid entry or own address. */
  constructor(options: EgressPolicyOptions = {}) {
    this.allowPrivate = options.allowPrivate ?? false;
    this.allow = (options.allow ?? []).map(parseEgressEntry);
    this.deny = (options.deny ?? []).map(parseEgressEntry);
    this.allowRanges = rangeMatchers(this.allow);
    this.denyRanges = rangeMatchers(this.deny);
    this.ownCount = options.ownAddresses?.length ?? 0;
    for (const own of options.ownAddresses ?? []) {
      const ip = normaliseIpAddress(own);
      if (!ip) throw new Error(`"${own}" is not an IP address`);
      this.ownAddresses.addAddress(ip.address, ip.family);
    }
  }

  /**
   * Parses a comma-separated list (`EGRESS_ALLOW`, `EGRESS_DENY`): entries are trimmed, empty ones
   * skipped; an invalid entry throws an Error naming it.
   */
  static parseList(text: string): string[] {
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) parseEgressEntry(entry);
    return entries;
  }

  /**
   * May a connection be opened to `address` (on `port`, when known)? `via` is the host name it was
   * resolved from, so that a host-name `allow` entry opens what that name resolves to (and a
   * host-name `deny` entry refuses it; `checkHost` answers that before resolving).
   */
  check(address: string, via?: string, port?: number): EgressVerdict {
    const ip = normaliseIpAddress(address);
    if (!ip) return refuse(`not an IP address (${address})`, 'invalid');
    const judged: NormalisedIp = ip.nat64 ? { address: ip.nat64, family: 'ipv4' } : ip;
    const forms = ip.nat64 ? [ip, judged] : [ip];
    const denied =
      forms.map((form) => firstMatch(this.denyRanges, form, port, true)).find(Boolean) ??
      (via === undefined ? undefined : hostMatch(this.deny, via, port, true));
    if (denied !== undefined) return refuse(`listed in EGRESS_DENY (${denied})`, 'deny');
    const range = firstMatch(this.ranges, judged);
    const refuseRange = ({ label, cidr }: EgressRange) =>
      refuse(
        `${label} (${cidr})${ip.nat64 ? ' via NAT64 (64:ff9b::/96)' : ''}${this.otherPort(forms, via, port)}`,
        'range',
      );
    if (range?.kind === 'unroutable') return refuseRange(range);
    const allowedName = via !== undefined && hostMatch(this.allow, via, port, false) !== undefined;
    if (allowedName || forms.some((form) => firstMatch(this.allowRanges, form, port, false))) return ALLOWED;
    if (range && !(range.kind === 'private' && this.allowPrivate)) return refuseRange(range);
    if (!this.allowPrivate && forms.some((form) => this.ownAddresses.check(form.address, form.family))) {
      return refuse(
        `this host's own address (${judged.address})${this.otherPort(forms, via, port)}`,
        'own-address',
      );
    }
    return ALLOWED;
  }

  /** The configuration in force, for the start-up log. */
  describe(): { allowPrivate: boolean; allow: string[]; deny: string[]; ownAddresses: number } {
    const texts = (entries: readonly EgressEntry[]) => entries.map((entry) => entry.text);
    return {
      allowPrivate: this.allowPrivate,
      allow: texts(this.allow),
      deny: texts(this.deny),
      ownAddresses: this.ownCount,
    };
  }

  /**
   * Is the host name (on `port`, when known) refused by a host-name `deny` entry (exact, or `*.` for
   * subdomains)?
   */
  checkHost(hostname: string, port?: number): EgressVerdict {
    const denied = hostMatch(this.deny, hostname, port, true);
    return denied === undefined ? ALLOWED : refuse(`listed in EGRESS_DENY (${denied})`, 'deny');
  }

  /**
   * A hint for a refusal that an `allow` entry for another port of the same destination would have
   * lifted (`; EGRESS_ALLOW has 127.0.0.1:8080, not port 3000`), so the reader sees it is the port.
   */
  private otherPort(
    forms: readonly NormalisedIp[],
    via: string | undefined,
    port: number | undefined,
  ): string {
    if (port === undefined) return '';
    const sameAddress = (entry: EgressEntry) =>
      entry.port !== null &&
      entry.port !== port &&
      (entry.kind === 'range'
        ? forms.some((form) =>
            subnet(entry.network, entry.prefix, entry.family).check(form.address, form.family),
          )
        : via !== undefined && hostMatch([entry], via, entry.port, false) !== undefined);
    const near = this.allow.find(sameAddress);
    return near ? `; EGRESS_ALLOW has ${near.text}, not port ${port}` : '';
  }
}

function subnet(network: string, prefix: number, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list;
}

function rangeMatchers(entries: readonly EgressEntry[]): Matcher<string>[] {
  return entries.flatMap((entry) =>
    entry.kind === 'range'
      ? [{ item: entry.text, list: subnet(entry.network, entry.prefix, entry.family), port: entry.port }]
      : [],
  );
}

/**
 * Does an entry for `entryPort` (null: every port) cover `port`? An unknown port is covered when
 * `unknownMatches` (deny entries), not otherwise (allow entries).
 */
function portFits(entryPort: number | null, port: number | undefined, unknownMatches: boolean): boolean {
  if (entryPort === null) return true;
  return port === undefined ? unknownMatches : entryPort === port;
}

function firstMatch<T>(
  matchers: readonly Matcher<T>[],
  ip: NormalisedIp,
  port?: number,
  unknownMatches = false,
): T | undefined {
  return matchers.find(
    (matcher) => portFits(matcher.port, port, unknownMatches) && matcher.list.check(ip.address, ip.family),
  )?.item;
}

/** The text of the first host-name entry matching `hostname` (and `port`, see `portFits`). */
function hostMatch(
  entries: readonly EgressEntry[],
  hostname: string,
  port: number | undefined,
  unknownMatches: boolean,
): string | undefined {
  const name = normaliseHostName(hostname);
  if (name === null) return undefined;
  return entries.find(
    (entry) =>
      entry.kind === 'host' &&
      portFits(entry.port, port, unknownMatches) &&
      (entry.subdomains ? name.endsWith(`.${entry.name}`) : name === entry.name),
  )?.text;
}

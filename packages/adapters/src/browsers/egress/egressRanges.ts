/**
 * How a built-in range can be opened: `unroutable` never (no configuration makes it a destination),
 * `private` by `allowPrivate` or an `allow` entry, `link-local` only by an `allow` entry (link-local
 * networks and the cloud metadata endpoints, which hand out the host's credentials).
 */
export type EgressRangeKind = 'unroutable' | 'private' | 'link-local';

/** A range the egress policy refuses by default; `label (cidr)` is the refusal's reason. */
export interface EgressRange {
  cidr: string;
  label: string;
  kind: EgressRangeKind;
}

/**
 * The ranges refused by default, most specific first (the first match names the reason).
 * IPv4-mapped (`::ffff:0:0/96`) and NAT64 (`64:ff9b::/96`) addresses are judged by the IPv4 address
 * they embed, so they have no entry of their own.
 */
export const EGRESS_RANGES: readonly EgressRange[] = [
  { cidr: '0.0.0.0/8', label: 'this network', kind: 'unroutable' },
  { cidr: '10.0.0.0/8', label: 'private', kind: 'private' },
  { cidr: '100.100.100.200/32', label: 'cloud metadata', kind: 'link-local' },
  { cidr: '100.64.0.0/10', label: 'shared address space (CGNAT)', kind: 'private' },
  { cidr: '127.0.0.0/8', label: 'loopback', kind: 'private' },
  { cidr: '169.254.0.0/16', label: 'link-local', kind: 'link-local' },
  { cidr: '172.16.0.0/12', label: 'private', kind: 'private' },
  { cidr: '192.0.0.0/24', label: 'IETF protocol assignments', kind: 'private' },
  { cidr: '192.0.2.0/24', label: 'documentation', kind: 'private' },
  { cidr: '192.168.0.0/16', label: 'private', kind: 'private' },
  { cidr: '198.18.0.0/15', label: 'benchmarking', kind: 'private' },
  { cidr: '198.51.100.0/24', label: 'documentation', kind: 'private' },
  { cidr: '203.0.113.0/24', label: 'documentation', kind: 'private' },
  { cidr: '224.0.0.0/4', label: 'multicast', kind: 'unroutable' },
  { cidr: '240.0.0.0/4', label: 'reserved and broadcast', kind: 'unroutable' },
  { cidr: '::/128', label: 'unspecified', kind: 'unroutable' },
  { cidr: '::1/128', label: 'loopback', kind: 'private' },
  { cidr: '::/96', label: 'IPv4-compatible (deprecated)', kind: 'unroutable' },
  { cidr: '2001:db8::/32', label: 'documentation', kind: 'private' },
  { cidr: 'fd00:ec2::254/128', label: 'cloud metadata', kind: 'link-local' },
  { cidr: 'fc00::/7', label: 'unique local', kind: 'private' },
  { cidr: 'fe80::/10', label: 'link-local', kind: 'link-local' },
  { cidr: 'fec0::/10', label: 'site-local (deprecated)', kind: 'private' },
  { cidr: 'ff00::/8', label: 'multicast', kind: 'unroutable' },
];

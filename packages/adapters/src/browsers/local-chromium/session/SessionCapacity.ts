import type { HostResources } from '../../../confinement/limits/hostResources.ts';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/**
 * The figures the default capacity is planned with (docs/benchmarks.md §10, docs/configuration.md).
 * An idle about:blank session measured 138 MiB of PSS across its browser's processes plus 3 MiB of
 * server growth; a real page's renderer takes tens to hundreds of MiB more, so a session is planned
 * at 512 MiB (about 3.7 times the idle floor). CPU: two sessions a core; automation mostly waits on
 * the network and its client, but a page load or a script takes a core while it runs.
 */
export const SESSION_CAPACITY_PLANNING = {
  memoryPerSessionBytes: 512 * MIB,
  sessionsPerCore: 2,
  /** Kept for the service (its PSS ~170 MiB), its runs (2 × up to ~420 MiB by default) and bursts. */
  reserveBytes: GIB,
  /** And for the kernel, page cache and tmpfs, a share of the memory. */
  reserveShare: 0.1,
  /** The most the default ever is (`LOCAL_MAX_SESSIONS`' own upper bound). */
  maxSessions: 1000,
} as const;

/** How many sessions the local provider runs at once, and where the figure came from. */
export interface SessionCapacity {
  /** Browsers at once, sessions and warm ones together (`LOCAL_MAX_SESSIONS`). */
  readonly maxSessions: number;
  /** One account's share (`LOCAL_MAX_SESSIONS_PER_OWNER`; default half of `maxSessions`, at least 1). */
  readonly maxSessionsPerOwner: number;
  /** `configured`: `maxSessions` was given; `host`: sized from `host`. */
  readonly source: 'configured' | 'host';
  /** What the cores and the memory would each allow (the default is the lower). */
  readonly byCores: number;
  readonly byMemory: number;
  readonly host: HostResources;
  /** A configured per-account share above a host-sized `maxSessions`, lowered to it. */
  readonly perOwnerLowered: number | null;
}

/**
 * The capacity for `settings` on `host`. A configured `maxSessions` wins; otherwise the lower of
 * floor(cores × 2) and floor((memory − 1 GiB − 10 % of memory) ÷ per-session memory), between 1 and
 * 1000, where per-session memory is 512 MiB, or the browsers' memory limit when one is set below
 * that. The per-account share defaults to half of it, at least 1; a configured share above a
 * host-sized maximum is lowered to it (`perOwnerLowered`). Throws a `RangeError` for a configured
 * share above a configured maximum, or numbers that are not positive integers.
 */
export function resolveSessionCapacity(
  settings: {
    readonly maxSessions?: number | undefined;
    readonly maxSessionsPerOwner?: number | undefined;
    /** `LOCAL_BROWSER_MEMORY_MB` when set (0: no limit). */
    readonly browserMemoryMb?: number | undefined;
  },
  host: HostResources,
): SessionCapacity {
  const { maxSessions: configured, maxSessionsPerOwner: perOwner, browserMemoryMb } = settings;
  positive('maxSessions', configured);
  positive('maxSessionsPerOwner', perOwner);
  const plan = SESSION_CAPACITY_PLANNING;
  const perSession =
    browserMemoryMb !== undefined && browserMemoryMb > 0
      ? Math.min(plan.memoryPerSessionBytes, browserMemoryMb * MIB)
      : plan.memoryPerSessionBytes;
  const usable = host.memoryBytes * (1 - plan.reserveShare) - plan.reserveBytes;
  const byMemory = Math.max(0, Math.floor(usable / perSession));
  const byCores = Math.floor(host.cores * plan.sessionsPerCore);
  const maxSessions = configured ?? Math.min(plan.maxSessions, Math.max(1, Math.min(byCores, byMemory)));
  if (configured !== undefined && perOwner !== undefined && perOwner > configured)
    throw new RangeError(`maxSessionsPerOwner (${perOwner}) must be at most maxSessions (${configured})`);
  const lowered = perOwner !== undefined && perOwner > maxSessions ? perOwner : null;
  return {
    maxSessions,
    maxSessionsPerOwner:
      perOwner === undefined ? Math.max(1, Math.floor(maxSessions / 2)) : Math.min(perOwner, maxSessions),
    source: configured === undefined ? 'host' : 'configured',
    byCores,
    byMemory,
    host,
    perOwnerLowered: lowered,
  };
}

/** The start-up line: what was chosen and from what. */
export function describeSessionCapacity(capacity: SessionCapacity): string {
  const { maxSessions, maxSessionsPerOwner, host } = capacity;
  const cores = `${Number.isInteger(host.cores) ? host.cores : host.cores.toFixed(2)} cores${host.coresFrom === 'cgroup' ? ' (CPU quota)' : ''}`;
  const memory = `${(host.memoryBytes / GIB).toFixed(1)} GiB${host.memoryFrom === 'cgroup' ? ' (cgroup limit)' : ''}`;
  const sized = `${cores}, ${memory}: ${capacity.byCores} by cores, ${capacity.byMemory} by memory`;
  const from =
    capacity.source === 'configured'
      ? `set by LOCAL_MAX_SESSIONS; this host's default: ${sized}`
      : `from ${sized}; LOCAL_MAX_SESSIONS to change`;
  const lowered =
    capacity.perOwnerLowered === null
      ? ''
      : `; the configured ${capacity.perOwnerLowered} per account is more than the capacity, lowered to it`;
  return `local provider: capacity ${maxSessions} sessions, ${maxSessionsPerOwner} per account (${from}${lowered})`;
}

function positive(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1))
    throw new RangeError(`${name} must be a positive integer`);
}

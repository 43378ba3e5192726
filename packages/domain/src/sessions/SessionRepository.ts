import type { ProxyBytesDelta } from '../providers/ProviderCapabilities.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { StatsBucket, StatsSeriesQuery } from './StatsSeries.ts';
import type { SessionStatus } from './sessionStatus.ts';

/** One page of a project's sessions. */
export interface SessionPage {
  readonly sessions: BrowserSession[];
  readonly total: number;
}

/**
 * Sessions whose `metadata` holds `value` at `path` (http-api.md §13, Browserbase's
 * `q=user_metadata['a']['b']:'value'`): following the keys of `path` from the top of the object
 * leads to the string `value`, or to a number or boolean whose JSON text is `value` (`5`, `true`).
 * Objects, arrays and null match nothing, nor does a key missing on the way.
 */
export interface MetadataFilter {
  /** Object keys from the top of `metadata` down; at least one. */
  readonly path: readonly string[];
  readonly value: string;
}

/** Which of a project's sessions `SessionRepository.list` returns: the matching ones, one page of them. */
export interface SessionListQuery {
  readonly status?: SessionStatus | undefined;
  readonly metadata?: MetadataFilter | undefined;
  readonly limit: number;
  readonly offset: number;
}

/** A project's session statistics, computed by the store (never by loading sessions). */
export interface SessionStats {
  readonly total: number;
  readonly byStatus: Record<SessionStatus, number>;
  readonly createdLast24h: number;
  /** Mean of endedAt − startedAt over ended sessions, seconds; 0 when none ended. */
  readonly avgDurationSec: number;
  /** Sum over all sessions of (endedAt, or now) − startedAt, seconds. */
  readonly totalBrowserSec: number;
  /** Sum of every session's `proxyBytes`. */
  readonly totalProxyBytes: number;
}

/**
 * Which sessions a reconciler may claim: those its provider instance can reach (`BrowserProvider.instanceId`),
 * and other instances' ones only once they are long over.
 */
export interface SyncScope {
  /** Sessions held by this instance, besides those of no instance (null: only those of none). */
  readonly instanceId: string | null;
  /** Another instance’s sessions are claimed too once their `expiresAt` is at or before this. */
  readonly othersExpiredBefore: Date;
}

/** Where tracked sessions are kept. Reads are scoped by project. */
export interface SessionRepository {
  add(session: BrowserSession): Promise<void>;
  /**
   * Stores what changed of `session` and ends any sync claim on it. A stored terminal status is
   * final; `proxyBytes` is written only when above the stored count, so increments that
   * `addProxyBytes` made since `session` was read are kept.
   */
  update(session: BrowserSession): Promise<void>;
  findInProject(projectId: string, sessionId: string): Promise<BrowserSession | null>;
  /** Newest first; with `status` and `metadata`, only the sessions that match both (the total too). */
  list(projectId: string, query: SessionListQuery): Promise<SessionPage>;
  stats(projectId: string, now: Date): Promise<SessionStats>;
  /**
   * Every bucket of `query` for the project, oldest first, empty ones as zeros; computed by the store
   * (never by loading sessions).
   */
  statsSeries(projectId: string, query: StatsSeriesQuery): Promise<StatsBucket[]>;
  /** The project's sessions that are still active, for releasing before a project is deleted. */
  listActiveInProject(projectId: string): Promise<BrowserSession[]>;
  /**
   * Claims up to `limit` active sessions, least recently synced first, that no one else holds a
   * claim on, and holds them until `leaseUntil`. Safe with several server instances on one database:
   * a session is never claimed by two at once. With `syncedBefore`, only sessions last synced
   * strictly before it are claimed, so a pass of several batches never takes a session it (or
   * another instance) already refreshed after the pass began. With `scope`, only the sessions it
   * covers are claimed: a session of another instance only once its `expiresAt` is at or before
   * `othersExpiredBefore`.
   */
  claimForSync(
    now: Date,
    leaseUntil: Date,
    limit: number,
    syncedBefore?: Date,
    scope?: SyncScope,
  ): Promise<BrowserSession[]>;
  /**
   * Holds the sync claim on `session` until `until`, writing nothing else: the reconciler's back-off
   * after a refresh that failed. An ended or unknown session is left alone.
   */
  postponeSync(session: BrowserSession, until: Date): Promise<void>;
  /**
   * Stores only `status`, `endedAt` and `updatedAt` of `session`, and ends any sync claim on it:
   * values the service sets itself, so this succeeds where `update` keeps failing on a value the
   * database refuses (a URL or a time the provider sent). A stored terminal status stays final, as
   * with `update`.
   */
  updateStatus(session: BrowserSession): Promise<void>;
  /**
   * Up to `limit` active sessions whose browser `instanceId` holds (`providerInstanceId`), oldest
   * first: those of an instance that is gone, to end them (`EndLostInstanceSessions`).
   */
  listActiveHeldBy(instanceId: string, limit: number): Promise<BrowserSession[]>;
  /**
   * Adds each delta's bytes to the `proxyBytes` of the session with its `providerSessionId`, ended
   * ones included, each as one atomic increment in the store (never read, added and written back, so
   * concurrent writers lose nothing), all of them or none. Returns the deltas that matched no
   * session (not stored yet, or never), for the caller to retry or drop.
   */
  addProxyBytes(deltas: readonly ProxyBytesDelta[]): Promise<ProxyBytesDelta[]>;
  /**
   * Counts one more upload of the project's session while it has fewer than `max`, as one atomic
   * conditional increment in the store (concurrent uploads never pass `max` together). False, and
   * nothing counted, when the session has `max` already or is no session of the project.
   */
  countUpload(projectId: string, sessionId: string, max: number): Promise<boolean>;
  /** Takes back one counted upload (it failed and left nothing), never below zero. */
  uncountUpload(projectId: string, sessionId: string): Promise<void>;
}

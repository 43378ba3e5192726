import type {
  BrowserSession,
  ProxyBytesDelta,
  SessionListQuery,
  SessionPage,
  SessionRepository,
  SessionStats,
  StatsBucket,
  StatsSeriesQuery,
  SyncScope,
  Writable,
} from '@browserdeck/domain';
import {
  emptyStatsSeries,
  metadataMatches,
  SESSION_STATUSES,
  type SessionStatus,
  statsSeriesBuckets,
} from '@browserdeck/domain';
import { cloneEntity } from './cloneEntity.ts';

const DAY_MS = 86_400_000;

/** Sessions in a Map; stores copies. Claims for sync are kept beside them. */
export class InMemorySessionRepository implements SessionRepository {
  private readonly sessions = new Map<string, BrowserSession>();
  private readonly leases = new Map<string, number>();
  /** Uploads counted per session (`countUpload`), beside the sessions as a column would be. */
  private readonly uploads = new Map<string, number>();
  /** Makes the next `add` fail, to test what happens when storing fails after the provider succeeded. */
  failNextAdd: Error | null = null;
  /** Makes the next `addProxyBytes` fail with it, storing nothing, as a database that is down would. */
  failNextAddProxyBytes: Error | null = null;
  private updateFailures: { count: number; error: Error } = { count: 0, error: new Error() };

  async add(session: BrowserSession): Promise<void> {
    if (this.failNextAdd) {
      const error = this.failNextAdd;
      this.failNextAdd = null;
      throw error;
    }
    this.sessions.set(session.id, cloneEntity(session));
  }

  /**
   * Makes the next `count` calls of `update` fail with `error`, as a database that refuses a value
   * the provider sent would; `updateStatus` and `postponeSync` still work.
   */
  failNextUpdates(count: number, error = new Error('the database refused the row')): void {
    this.updateFailures = { count, error };
  }

  async update(session: BrowserSession): Promise<void> {
    if (this.updateFailures.count > 0) {
      this.updateFailures.count--;
      throw this.updateFailures.error;
    }
    const stored = this.sessions.get(session.id);
    if (!stored) return;
    this.leases.delete(session.id);
    // A stored terminal status is final, also against a writer holding an older, active copy.
    if (!stored.isActive && stored.status !== session.status) return;
    // Proxy bytes only go up: increments made since the writer read its copy are kept.
    const proxyBytes = Math.max(stored.proxyBytes, session.proxyBytes);
    this.sessions.set(session.id, Object.assign(cloneEntity(session), { proxyBytes }));
  }

  async addProxyBytes(deltas: readonly ProxyBytesDelta[]): Promise<ProxyBytesDelta[]> {
    if (this.failNextAddProxyBytes) {
      const error = this.failNextAddProxyBytes;
      this.failNextAddProxyBytes = null;
      throw error;
    }
    const unmatched: ProxyBytesDelta[] = [];
    for (const delta of deltas) {
      const matching = [...this.sessions.values()].filter(
        (s) => s.providerSessionId === delta.providerSessionId,
      );
      if (matching.length === 0) unmatched.push({ ...delta });
      for (const s of matching) {
        this.sessions.set(s.id, Object.assign(cloneEntity(s), { proxyBytes: s.proxyBytes + delta.bytes }));
      }
    }
    return unmatched;
  }

  async findInProject(projectId: string, sessionId: string): Promise<BrowserSession | null> {
    const session = this.sessions.get(sessionId);
    return session && session.projectId === projectId ? cloneEntity(session) : null;
  }

  async list(projectId: string, query: SessionListQuery): Promise<SessionPage> {
    const { status, metadata } = query;
    const all = this.inProject(projectId)
      .filter((s) => (!status || s.status === status) && (!metadata || metadataMatches(s.metadata, metadata)))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return {
      sessions: all.slice(query.offset, query.offset + query.limit).map(cloneEntity),
      total: all.length,
    };
  }

  async stats(projectId: string, now: Date): Promise<SessionStats> {
    const all = this.inProject(projectId);
    const byStatus = Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>;
    let ended = 0;
    let endedSec = 0;
    let totalBrowserSec = 0;
    let totalProxyBytes = 0;
    for (const s of all) {
      byStatus[s.status]++;
      totalProxyBytes += s.proxyBytes;
      const sec = ((s.endedAt ?? now).getTime() - s.startedAt.getTime()) / 1000;
      totalBrowserSec += Math.max(0, sec);
      if (s.endedAt) {
        ended++;
        endedSec += Math.max(0, sec);
      }
    }
    return {
      total: all.length,
      byStatus,
      createdLast24h: all.filter((s) => now.getTime() - s.createdAt.getTime() < DAY_MS).length,
      avgDurationSec: ended ? endedSec / ended : 0,
      totalBrowserSec,
      totalProxyBytes,
    };
  }

  async statsSeries(projectId: string, query: StatsSeriesQuery): Promise<StatsBucket[]> {
    const { start, width, count } = statsSeriesBuckets(query);
    const end = start + count * width;
    const series: Writable<StatsBucket>[] = emptyStatsSeries(query);
    const browserMs = series.map(() => 0);
    const bucketOf = (ms: number) => Math.floor((ms - start) / width);
    const inWindow = (date: Date | null): date is Date =>
      date !== null && date.getTime() >= start && date.getTime() < end;
    for (const s of this.inProject(projectId)) {
      if (inWindow(s.createdAt)) {
        const bucket = series[bucketOf(s.createdAt.getTime())]!;
        bucket.created++;
        bucket.proxyBytes += s.proxyBytes;
      }
      if (inWindow(s.endedAt)) {
        const bucket = series[bucketOf(s.endedAt.getTime())]!;
        if (s.status === 'COMPLETED') bucket.completed++;
        else if (s.status === 'ERROR') bucket.errored++;
        else if (s.status === 'TIMED_OUT') bucket.timedOut++;
      }
      // The session's browser time, [startedAt, endedAt or now), cut at each bucket edge.
      const from = Math.max(s.startedAt.getTime(), start);
      const to = Math.min((s.endedAt ?? query.now).getTime(), end);
      for (let b = from < to ? bucketOf(from) : count; b < count && start + b * width < to; b++) {
        browserMs[b]! += Math.min(to, start + (b + 1) * width) - Math.max(from, start + b * width);
      }
    }
    for (const [i, ms] of browserMs.entries()) series[i]!.browserSec = ms / 1000;
    return series;
  }

  async listActiveInProject(projectId: string): Promise<BrowserSession[]> {
    return this.inProject(projectId)
      .filter((s) => s.isActive)
      .map(cloneEntity);
  }

  async listActiveHeldBy(instanceId: string, limit: number): Promise<BrowserSession[]> {
    return [...this.sessions.values()]
      .filter((s) => s.isActive && s.providerInstanceId === instanceId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .slice(0, limit)
      .map(cloneEntity);
  }

  async claimForSync(
    now: Date,
    leaseUntil: Date,
    limit: number,
    syncedBefore?: Date,
    scope?: SyncScope,
  ): Promise<BrowserSession[]> {
    const cutOff = syncedBefore?.getTime() ?? Number.POSITIVE_INFINITY;
    const inScope = (s: BrowserSession) =>
      !scope ||
      s.providerInstanceId === null ||
      s.providerInstanceId === scope.instanceId ||
      (s.expiresAt !== null && s.expiresAt <= scope.othersExpiredBefore);
    const free = [...this.sessions.values()]
      .filter(
        (s) =>
          s.isActive &&
          inScope(s) &&
          (this.leases.get(s.id) ?? 0) <= now.getTime() &&
          s.lastSyncedAt.getTime() < cutOff,
      )
      .sort((a, b) => a.lastSyncedAt.getTime() - b.lastSyncedAt.getTime())
      .slice(0, limit);
    for (const s of free) this.leases.set(s.id, leaseUntil.getTime());
    return free.map(cloneEntity);
  }

  async postponeSync(session: BrowserSession, until: Date): Promise<void> {
    const stored = this.sessions.get(session.id);
    if (stored?.isActive && stored.projectId === session.projectId)
      this.leases.set(session.id, until.getTime());
  }

  async updateStatus(session: BrowserSession): Promise<void> {
    const stored = this.sessions.get(session.id);
    if (!stored || stored.projectId !== session.projectId) return;
    this.leases.delete(session.id);
    if (!stored.isActive && stored.status !== session.status) return;
    const { status, endedAt, updatedAt } = session;
    this.sessions.set(session.id, Object.assign(cloneEntity(stored), { status, endedAt, updatedAt }));
  }

  async countUpload(projectId: string, sessionId: string, max: number): Promise<boolean> {
    if (this.sessions.get(sessionId)?.projectId !== projectId) return false;
    const counted = this.uploads.get(sessionId) ?? 0;
    if (counted >= max) return false;
    this.uploads.set(sessionId, counted + 1);
    return true;
  }

  async uncountUpload(projectId: string, sessionId: string): Promise<void> {
    if (this.sessions.get(sessionId)?.projectId !== projectId) return;
    this.uploads.set(sessionId, Math.max(0, (this.uploads.get(sessionId) ?? 0) - 1));
  }

  /** How many uploads `sessionId` has counted, for tests. */
  uploadsOf(sessionId: string): number {
    return this.uploads.get(sessionId) ?? 0;
  }

  /** Forgets the sessions of a deleted project (the database cascades). */
  deleteProject(projectId: string): void {
    for (const s of this.inProject(projectId)) {
      this.sessions.delete(s.id);
      this.uploads.delete(s.id);
    }
  }

  private inProject(projectId: string): BrowserSession[] {
    return [...this.sessions.values()].filter((s) => s.projectId === projectId);
  }
}

import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';
import { statusAfterRelease } from './sessionStatus.ts';
import {
  type SyncGiveUpReason,
  type SyncRetryPolicy,
  syncGiveUpReason,
  syncRetryAt,
  syncRetryPolicy,
} from './syncRetry.ts';
import { type SessionSync, syncSession } from './syncSession.ts';

export interface ReconcileSessionsDeps {
  sessions: SessionRepository;
  /**
   * Reads whether a session's project is still open (SPEC §17): a session of a deleted project, or
   * of one whose owner an operator disabled, is released by the instance holding it. Absent: not checked.
   */
  projects?: ProjectRepository | undefined;
  provider: BrowserProvider;
  clock: Clock;
  logger?: Logger;
}

/** How one reconcile pass went. */
export interface ReconcileReport {
  claimed: number;
  /** Refreshed and stored. */
  synced: number;
  /** Not refreshed this time (the provider failed, or storing failed): held back, tried again later. */
  failed: number;
  /** Given up on: their refresh could not be stored, and they were ended as `ERROR` instead. */
  endedAsError: number;
}

/** The reconciler's interval when none is given. */
const DEFAULT_INTERVAL_SEC = 15;

/**
 * One batch of the background reconciler: claims a bounded batch of active sessions (no other server
 * instance can claim them meanwhile) and refreshes them from the provider with bounded concurrency.
 * A pass of several batches gives each the time the pass began as `syncedBefore`: sessions it has
 * refreshed already (their `lastSyncedAt` is later) are not claimed again in the same pass.
 *
 * A session whose refresh fails is held back (`postponeSync`) for longer after each failure
 * (`syncRetryAt`), and one whose refresh keeps failing to be stored is ended as `ERROR` with a
 * status-only write when the provider says it has ended or it is past its end of life
 * (`syncGiveUpReason`); one still running at the provider then is released there first.
 *
 * Sessions another instance holds (`BrowserProvider.instanceId`) are not claimed, so neither
 * refreshed nor taken as gone from here, unless their `expiresAt` is past by the policy's
 * `expiryGraceSec`: then nobody refreshed them in all that time, and they are ended as `TIMED_OUT`.
 *
 * A session this instance holds whose project is closed (deleted, or its owner's account disabled by
 * an operator) is released and stored `COMPLETED` instead: so a disable that another instance made
 * ends this instance's browsers within one pass.
 */
export class ReconcileSessions {
  private readonly deps: ReconcileSessionsDeps;

  constructor(deps: ReconcileSessionsDeps) {
    this.deps = deps;
  }

  async execute(input: {
    batchSize: number;
    concurrency: number;
    leaseSec: number;
    /** Only sessions last synced strictly before this are refreshed (default: no cut-off). */
    syncedBefore?: Date | undefined;
    /** Back-off and giving up for failing sessions (default: `syncRetryPolicy(15)`). */
    retry?: SyncRetryPolicy | undefined;
  }): Promise<ReconcileReport> {
    const now = this.deps.clock.now();
    const retry = input.retry ?? syncRetryPolicy(DEFAULT_INTERVAL_SEC);
    // Another instance's sessions are its to refresh; only those long past their end of life are claimed.
    const claimed = await this.deps.sessions.claimForSync(
      now,
      new Date(now.getTime() + input.leaseSec * 1000),
      input.batchSize,
      input.syncedBefore,
      {
        instanceId: this.deps.provider.capabilities.placement?.instanceId ?? null,
        othersExpiredBefore: new Date(now.getTime() - retry.expiryGraceSec * 1000),
      },
    );
    // The repository honours the cut-off (its contract suite checks it on every implementation).
    const report: ReconcileReport = { claimed: claimed.length, synced: 0, failed: 0, endedAsError: 0 };
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) report[await this.reconcile(claimed[next++]!, retry)]++;
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(input.concurrency, claimed.length)) }, worker),
    );
    return report;
  }

  private async reconcile(
    session: BrowserSession,
    retry: SyncRetryPolicy,
  ): Promise<'synced' | 'failed' | 'endedAsError'> {
    const stored = session.asAnswered(session.answer);
    if (await this.projectClosed(session)) return this.endClosed(session);
    let sync: SessionSync;
    try {
      sync = await syncSession(session, this.deps, retry.expiryGraceSec);
    } catch (error) {
      this.logger.warn({ sessionId: session.id, error: String(error) }, 'session sync failed');
      await this.holdBack(stored, retry);
      return 'failed';
    }
    if (sync.syncError === null) return 'synced';
    // The provider failed: an expected error (counted, not logged), held back like any failure.
    if (!sync.unstored) {
      await this.holdBack(stored, retry);
      return 'failed';
    }
    const now = this.deps.clock.now();
    const reason = syncGiveUpReason(stored, sync.unstored.refreshed, now, retry);
    if (reason && (await this.endAsError(stored, sync.unstored.refreshed, reason, now))) {
      this.logger.error(
        { sessionId: session.id, reason, error: String(sync.unstored.error) },
        'session refresh could not be stored; ended it as ERROR',
      );
      return 'endedAsError';
    }
    const retryAt = await this.holdBack(stored, retry);
    this.logger.warn(
      { sessionId: session.id, error: String(sync.unstored.error), retryAt: retryAt.toISOString() },
      'session refresh could not be stored; trying again later',
    );
    return 'failed';
  }

  /**
   * Ends `stored` as `ERROR` with a status-only write, after asking the provider to release it
   * when it still runs there. False when that write fails too (held back then, like any failure).
   */
  private async endAsError(
    stored: BrowserSession,
    refreshed: BrowserSession,
    reason: SyncGiveUpReason,
    now: Date,
  ): Promise<boolean> {
    if (refreshed.isActive) {
      await this.deps.provider.sessions
        .release(stored.providerSessionId, stored.providerProjectId)
        .catch((error) => {
          this.logger.error(
            { sessionId: stored.id, providerSessionId: stored.providerSessionId, error: String(error) },
            'could not release a session given up on past its end of life',
          );
        });
    }
    const ended = stored.asAnswered(stored.answer);
    ended.end('ERROR', now);
    try {
      await this.deps.sessions.updateStatus(ended);
      return true;
    } catch (error) {
      this.logger.warn(
        { sessionId: stored.id, reason, error: String(error) },
        'could not end session as ERROR',
      );
      return false;
    }
  }

  /** Whether `session`'s project is deleted, or closed because an operator disabled its owner. */
  private async projectClosed(session: BrowserSession): Promise<boolean> {
    if (!this.deps.projects || heldElsewhere(session, this.deps.provider)) return false;
    const access = await this.deps.projects.findAccess(session.projectId, null);
    return !access || access.ownerDisabled;
  }

  /** Releases a closed project's session at the provider and stores it ended (`synced` once stored). */
  private async endClosed(session: BrowserSession): Promise<'synced' | 'failed'> {
    const now = this.deps.clock.now();
    const reported = await this.deps.provider.sessions
      .release(session.providerSessionId, session.providerProjectId)
      .catch((error: unknown) => {
        this.logger.warn(
          { sessionId: session.id, error: String(error) },
          'could not release a closed project’s session',
        );
        return null;
      });
    const ended = session.asAnswered(session.answer);
    ended.end(statusAfterRelease(reported), reported?.endedAt ?? now);
    try {
      await this.deps.sessions.updateStatus(ended);
      this.logger.info?.(
        { sessionId: session.id, projectId: session.projectId },
        'ended a session of a closed project',
      );
      return 'synced';
    } catch (error) {
      this.logger.warn(
        { sessionId: session.id, error: String(error) },
        'could not store a closed project’s session as ended',
      );
      return 'failed';
    }
  }

  /** Holds the claim on `stored` until its next attempt (best effort: else its lease runs out). */
  private async holdBack(stored: BrowserSession, retry: SyncRetryPolicy): Promise<Date> {
    const retryAt = syncRetryAt(stored, this.deps.clock.now(), retry);
    await this.deps.sessions.postponeSync(stored, retryAt).catch(() => undefined);
    return retryAt;
  }

  private get logger(): Logger {
    return this.deps.logger ?? silentLogger;
  }
}

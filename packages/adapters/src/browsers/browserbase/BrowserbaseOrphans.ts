import {
  type Clock,
  type CreateBrowserRequest,
  isTerminalStatus,
  type Logger,
  type ProviderSessionSnapshot,
} from '@browserdeck/domain';
import type { OrphanSearch, OrphanSearches } from '../orphans/OrphanSearches.ts';
import type { BrowserbaseCalls } from './BrowserbaseCalls.ts';
import { toProviderSnapshot } from './toProviderSnapshot.ts';

const PROVIDER = 'browserbase';
/** Orphan searches claimed per pass; each claim's lease covers their looks (reads with retries, releases). */
const ORPHAN_BATCH = 5;

/**
 * The search for browsers Browserbase may have started for creates whose outcome is unknown (a
 * timeout, a dropped connection): recorded after such a create, then looked for at
 * `delaysMs` after it by session metadata, and released when found active. The searches live in
 * `searches` (shared by the instances, leased per pass).
 */
export class BrowserbaseOrphans {
  private readonly searches: OrphanSearches;
  private readonly delaysMs: readonly number[];
  private readonly deps: {
    calls: Pick<BrowserbaseCalls, 'read'>;
    release: (providerSessionId: string, providerProjectId: string) => Promise<unknown>;
    /** How long one search may take at most (its reads with retries): the lease per search. */
    readBudgetMs: number;
    clock: Clock;
    logger: Logger;
  };

  constructor(deps: BrowserbaseOrphans['deps'] & { searches: OrphanSearches; delaysMs: readonly number[] }) {
    this.deps = deps;
    this.searches = deps.searches;
    this.delaysMs = deps.delaysMs;
  }

  /**
   * One pass of the search for browsers left by creates whose outcome is unknown: claims the due
   * searches of this provider (leased, so instances sharing the store never run the same one at
   * once), and for each looks for a browser of its session (`userMetadata.browserdeckSessionId`),
   * releases it while it is active, and forgets the search once a browser is found or its last look
   * (`orphanSweepDelaysMs`) is done; otherwise the search waits for its next look. Runs in the
   * background every `orphanSweepIntervalMs` (`capabilities.background`).
   * Returns how many searches it carried out.
   */
  async sweep(now: Date): Promise<number> {
    const leaseUntil = new Date(now.getTime() + ORPHAN_BATCH * this.deps.readBudgetMs);
    const due = await this.searches.claimDue(PROVIDER, now, leaseUntil, ORPHAN_BATCH);
    for (const search of due) {
      try {
        await this.searchOnce(search);
      } catch (error) {
        // The store failed: the lease ends and the search is claimed again.
        this.deps.logger.error(
          { sessionId: search.sessionId, error: String(error) },
          'could not keep track of the search for a Browserbase browser left by a failed create',
        );
      }
    }
    return due.length;
  }

  /** Records the search after a create whose outcome is unknown; never hides the create's failure. */
  async record(request: CreateBrowserRequest): Promise<void> {
    const first = this.delaysMs[0];
    if (first === undefined) return;
    const now = this.deps.clock.now();
    try {
      await this.searches.add({
        sessionId: request.sessionId,
        provider: PROVIDER,
        providerProjectId: request.providerProjectId,
        attempt: 0,
        nextAt: new Date(now.getTime() + first),
        createdAt: now,
      });
    } catch (error) {
      this.deps.logger.error(
        { sessionId: request.sessionId, error: String(error) },
        'could not record the search for a Browserbase browser left by a failed create',
      );
    }
  }

  /** One look for the browser of `search`'s session, then the search is forgotten or rescheduled. */
  private async searchOnce(search: OrphanSearch): Promise<void> {
    const { sessionId, attempt } = search;
    const nextDelay = this.delaysMs[attempt + 1];
    const next = () =>
      nextDelay === undefined
        ? this.searches.remove(sessionId)
        : this.searches.reschedule(sessionId, attempt + 1, new Date(search.createdAt.getTime() + nextDelay));
    const q = `user_metadata['browserdeckSessionId']:'${sessionId}'`;
    let found: ProviderSessionSnapshot[];
    try {
      const body = await this.deps.calls.read('find a session', (client, signal) =>
        client.sessions.list({ q }, { signal }),
      );
      // Checked here as well: a filter the API ignored must never release other sessions.
      found = (Array.isArray(body) ? body : [])
        .filter((session) => session?.userMetadata?.browserdeckSessionId === sessionId)
        .map((session) => toProviderSnapshot(session));
    } catch (error) {
      if (nextDelay === undefined) {
        this.deps.logger.error(
          { sessionId, error: String(error) },
          'could not look for a Browserbase browser left by a failed create',
        );
      }
      return next();
    }
    if (found.length === 0) return next();
    for (const orphan of found.filter((snapshot) => !isTerminalStatus(snapshot.status))) {
      try {
        await this.deps.release(orphan.providerSessionId, orphan.providerProjectId);
        this.deps.logger.warn(
          { sessionId, providerSessionId: orphan.providerSessionId },
          'released a Browserbase browser left by a failed create',
        );
      } catch (error) {
        this.deps.logger.error(
          { sessionId, providerSessionId: orphan.providerSessionId, error: String(error) },
          'could not release a Browserbase browser left by a failed create',
        );
      }
    }
    await this.searches.remove(sessionId);
  }
}

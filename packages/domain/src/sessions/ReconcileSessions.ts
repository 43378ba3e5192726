import type { Clock } from '../shared/Clock.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { BrowserProvider } from './BrowserProvider.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { syncSession } from './syncSession.ts';

export interface ReconcileSessionsDeps {
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  logger?: Logger;
}

/** How one reconcile pass went. */
export interface ReconcileReport {
  claimed: number;
  synced: number;
  failed: number;
}

/**
 * One batch of the background reconciler: claims a bounded batch of active sessions (no other server
 * instance can claim them meanwhile) and refreshes them from the provider with bounded concurrency.
 * A pass of several batches gives each the time the pass began as `syncedBefore`: sessions it has
 * refreshed already (their `lastSyncedAt` is later) are not claimed again in the same pass.
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
  }): Promise<ReconcileReport> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.sessions.claimForSync(
      now,
      new Date(now.getTime() + input.leaseSec * 1000),
      input.batchSize,
      input.syncedBefore,
    );
    // The repository honours the cut-off (its contract suite checks it on every implementation).
    const report: ReconcileReport = { claimed: claimed.length, synced: 0, failed: 0 };
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const session = claimed[next++]!;
        try {
          const { syncError } = await syncSession(session, this.deps);
          if (syncError) report.failed++;
          else report.synced++;
        } catch (error) {
          report.failed++;
          (this.deps.logger ?? silentLogger).warn(
            { sessionId: session.id, error: String(error) },
            'session sync failed',
          );
        }
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(input.concurrency, claimed.length)) }, worker),
    );
    return report;
  }
}

import type { Duplex } from 'node:stream';
import type { CheckLiveViewGrant, LiveViewGrant } from '@browserdeck/domain';
import type { Logger } from 'pino';

/** How often open viewers' grants are re-checked by default (http-api.md §14). */
export const LIVE_VIEW_RECHECK_DEFAULT_MS = 5_000;

/** Runs `tick` every `ms` until stopped. */
export type RecheckTimer = (ms: number, tick: () => Promise<void>) => { stop(): void };

/** How open live-view viewers are re-checked. */
export interface LiveViewRecheckOptions {
  /** Between two re-checks, in milliseconds; default `LIVE_VIEW_RECHECK_DEFAULT_MS`. */
  intervalMs?: number | undefined;
  /** Starts the periodic re-check; default an unref'd `setInterval`. Tests pass a manual one. */
  timer?: RecheckTimer | undefined;
}

/** What a LiveViewGrantWatch needs. */
export interface LiveViewGrantWatchDeps extends LiveViewRecheckOptions {
  check: Pick<CheckLiveViewGrant, 'execute'>;
  /** The database scope each re-check runs in (the app's `requestScope`). */
  scope?: ((next: () => Promise<void>) => Promise<void>) | undefined;
  logger?: Pick<Logger, 'warn'> | undefined;
}

interface Watched {
  readonly grant: LiveViewGrant;
  readonly controller: AbortController;
}

const intervalTimer: RecheckTimer = (ms, tick) => {
  const handle = setInterval(() => void tick(), ms);
  handle.unref();
  return { stop: () => clearInterval(handle) };
};

/**
 * Keeps admitted live-view viewers honest (http-api.md §14): every `intervalMs` while any is open, it
 * re-checks each viewer's grant (`CheckLiveViewGrant`: project not archived, API key not revoked,
 * sign-in not ended) and aborts the signal of a viewer whose grant no longer holds, which makes the
 * hub close it. Viewers with the same credential are checked once per round. A re-check that fails
 * (the database is down) is logged and leaves the viewer open until the next round decides. The
 * timer runs only while a viewer is watched.
 */
export class LiveViewGrantWatch {
  private readonly deps: LiveViewGrantWatchDeps;
  private readonly watched = new Set<Watched>();
  private timer: { stop(): void } | null = null;
  private round: Promise<void> | null = null;

  constructor(deps: LiveViewGrantWatchDeps) {
    this.deps = deps;
  }

  /**
   * Watches the grant of a viewer on `socket` until the socket closes; the signal aborts once the
   * grant no longer holds.
   */
  watch(grant: LiveViewGrant, socket: Duplex): AbortSignal {
    const entry: Watched = { grant, controller: new AbortController() };
    if (socket.destroyed) return entry.controller.signal;
    this.watched.add(entry);
    socket.once('close', () => this.forget(entry));
    if (!this.timer) {
      const every = this.deps.timer ?? intervalTimer;
      this.timer = every(this.deps.intervalMs ?? LIVE_VIEW_RECHECK_DEFAULT_MS, () => this.recheck());
    }
    return entry.controller.signal;
  }

  /** The number of viewers watched. */
  get size(): number {
    return this.watched.size;
  }

  /** One round of re-checks; a round still running is joined, not doubled. */
  recheck(): Promise<void> {
    this.round ??= this.runRound().finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async runRound(): Promise<void> {
    const verdicts = new Map<string, Promise<boolean | null>>();
    const entries = [...this.watched];
    await Promise.all(
      entries.map(async (entry) => {
        const { projectId, userId, credential, readOnly } = entry.grant.claims;
        const key = JSON.stringify([projectId, userId, credential, readOnly]);
        let verdict = verdicts.get(key);
        if (!verdict) {
          verdict = this.check(entry.grant);
          verdicts.set(key, verdict);
        }
        if ((await verdict) === false) {
          this.forget(entry);
          entry.controller.abort();
        }
      }),
    );
  }

  /** True or false as the use case answers; null when it could not (logged). */
  private async check(grant: LiveViewGrant): Promise<boolean | null> {
    let holds: boolean | null = null;
    const run = async () => {
      holds = await this.deps.check.execute({ grant });
    };
    try {
      await (this.deps.scope ? this.deps.scope(run) : run());
    } catch (error) {
      this.deps.logger?.warn(
        { err: error, sessionId: grant.session.id },
        'live view: could not re-check a viewer’s grant',
      );
    }
    return holds;
  }

  private forget(entry: Watched): void {
    if (!this.watched.delete(entry)) return;
    if (this.watched.size === 0) {
      this.timer?.stop();
      this.timer = null;
    }
  }
}

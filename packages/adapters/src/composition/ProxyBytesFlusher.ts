import type { ProxyBytesDelta, SessionRepository } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { PeriodicPass } from './lifecycle/PeriodicPass.ts';

/** Options of the proxy-byte flusher. */
export interface ProxyBytesFlusherOptions {
  /** The provider's meter: the bytes each session moved since it was last asked (`takeProxyBytes`). */
  take: () => readonly ProxyBytesDelta[];
  sessions: Pick<SessionRepository, 'addProxyBytes'>;
  logger: Logger;
  /** Seconds between flushes (`PROXY_BYTES_FLUSH_SEC`): at most this much is lost to a crash. */
  intervalSec: number;
  /**
   * Flushes a session's bytes wait for its row when they match no stored session (a create whose
   * session is not stored yet), before they are dropped with a warning. Default 12.
   */
  unmatchedTries?: number;
}

/** Bytes taken from the meter and not stored yet, and how many flushes found no session for them. */
interface Pending {
  bytes: number;
  misses: number;
}

/**
 * Moves the proxy bytes a provider metered (the local provider, at its egress proxy) into the
 * sessions' `proxyBytes` every `intervalSec`, and once more at `close()`, after the browsers ended
 * (their last bytes included). Bytes are taken from the meter once and held here until stored: a
 * store that fails keeps them for the next flush, so a database outage loses nothing; bytes of a
 * session not stored yet wait a few flushes for it. Flushes never overlap (a `PeriodicPass`).
 */
export class ProxyBytesFlusher {
  private readonly options: ProxyBytesFlusherOptions;
  private readonly pending = new Map<string, Pending>();
  private readonly loop: PeriodicPass;

  constructor(options: ProxyBytesFlusherOptions) {
    const { intervalSec } = options;
    if (!(Number.isFinite(intervalSec) && intervalSec > 0 && intervalSec <= 3600))
      throw new RangeError(
        `proxyBytesFlushSec must be a number of seconds above 0 and at most 3600, not ${intervalSec}`,
      );
    this.options = options;
    // A flush reports its own failures and never throws.
    this.loop = new PeriodicPass({
      pass: () => this.flushOnce(),
      intervalMs: intervalSec * 1000,
      onError: () => {},
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the timer and flushes once more, after a flush in progress: what the meter holds now is stored. */
  async close(): Promise<void> {
    await this.loop.stop();
    await this.flush();
  }

  /** Takes what the meter holds and stores it with what earlier flushes could not; never throws. */
  flush(): Promise<void> {
    return this.loop.run();
  }

  /** Bytes taken and not stored yet, per provider session id (for tests and diagnostics). */
  get pendingBytes(): ReadonlyMap<string, number> {
    return new Map([...this.pending].map(([id, { bytes }]) => [id, bytes]));
  }

  private async flushOnce(): Promise<void> {
    const { logger, unmatchedTries = 12 } = this.options;
    try {
      for (const { providerSessionId, bytes } of this.options.take()) {
        if (!(Number.isSafeInteger(bytes) && bytes > 0)) continue;
        const held = this.pending.get(providerSessionId);
        this.pending.set(providerSessionId, { bytes: (held?.bytes ?? 0) + bytes, misses: held?.misses ?? 0 });
      }
    } catch (error) {
      logger.warn({ err: error }, 'could not read the proxy byte meter');
    }
    if (this.pending.size === 0) return;
    const deltas = [...this.pending].map(([providerSessionId, { bytes }]) => ({ providerSessionId, bytes }));
    let unmatched: ProxyBytesDelta[];
    try {
      unmatched = await this.options.sessions.addProxyBytes(deltas);
    } catch (error) {
      // Kept, to be stored with the next flush's.
      logger.warn(
        { err: error, sessions: deltas.length },
        'could not store proxy bytes; retrying at the next flush',
      );
      return;
    }
    const missed = new Map(unmatched.map((delta) => [delta.providerSessionId, delta.bytes]));
    for (const [providerSessionId, held] of [...this.pending]) {
      if (!missed.has(providerSessionId)) {
        this.pending.delete(providerSessionId);
      } else if (held.misses + 1 >= unmatchedTries) {
        this.pending.delete(providerSessionId);
        logger.warn(
          { providerSessionId, bytes: held.bytes },
          'dropped proxy bytes of a session that was never stored',
        );
      } else {
        this.pending.set(providerSessionId, { bytes: held.bytes, misses: held.misses + 1 });
      }
    }
  }
}

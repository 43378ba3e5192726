import type { ProviderSessionSnapshot, SessionLogEntry } from '@browserdeck/domain';
import { EndedSessionArchive, type EndedSessionArchiveLimits } from '../../cdp/EndedSessionArchive.ts';
import type { ContextClaim } from '../profiles/ContextClaim.ts';
import type { LocalBrowserSession } from './LocalBrowserSession.ts';

/**
 * The local provider's sessions: the running ones (with the context claim each holds) and the
 * archive of ended ones, which keeps answering their final state, key and bounded logs.
 */
export class SessionRegistry {
  private readonly live = new Map<string, LocalBrowserSession>();
  private readonly claims = new Map<string, ContextClaim>();
  /** Claims of ended sessions still being let go (a shared profile being stored). */
  private readonly releasing = new Map<string, Promise<void>>();
  private readonly archive: EndedSessionArchive;

  constructor(limits: EndedSessionArchiveLimits) {
    this.archive = new EndedSessionArchive(limits);
  }

  /** Running sessions, including ones whose browser is still stopping. */
  get size(): number {
    return this.live.size;
  }

  /** Every running session. */
  all(): LocalBrowserSession[] {
    return [...this.live.values()];
  }

  /** The running session, or undefined. */
  running(providerSessionId: string): LocalBrowserSession | undefined {
    return this.live.get(providerSessionId);
  }

  /** What the provider reports now, running or ended; null for an id it never knew (or forgot). */
  snapshot(providerSessionId: string): ProviderSessionSnapshot | null {
    return (
      this.live.get(providerSessionId)?.snapshot ?? this.archive.get(providerSessionId)?.snapshot ?? null
    );
  }

  /** The logs of a running or archived session, oldest first. */
  logs(providerSessionId: string): SessionLogEntry[] {
    const session = this.live.get(providerSessionId);
    return session ? session.logs() : [...(this.archive.get(providerSessionId)?.logs ?? [])];
  }

  /** The deadlines of the running sessions, of one account's when `ownerId` is given. */
  expiries(ownerId?: string): (Date | null)[] {
    return this.all()
      .filter((s) => ownerId === undefined || s.ownerId === ownerId)
      .map((s) => s.snapshot.expiresAt);
  }

  /** For a connect: the session's key digest, and the session while it runs; null when unknown. */
  connectLookup(
    providerSessionId: string,
  ): { keyDigest: Buffer; running: LocalBrowserSession | null } | null {
    const running = this.live.get(providerSessionId);
    const keyDigest = running?.keyDigest ?? this.archive.get(providerSessionId)?.keyDigest;
    return keyDigest ? { keyDigest, running: running ?? null } : null;
  }

  /** A session opened, with the context claim it holds until it ends. */
  add(session: LocalBrowserSession, claim: ContextClaim | null): void {
    this.live.set(session.id, session);
    if (claim) this.claims.set(session.id, claim);
  }

  /** A session's browser is gone: its claim is let go and its final state archived. */
  retire(session: LocalBrowserSession): void {
    this.live.delete(session.id);
    const releasing = this.claims.get(session.id)?.release();
    this.claims.delete(session.id);
    if (releasing) {
      const done = releasing.catch(() => {}).finally(() => this.releasing.delete(session.id));
      this.releasing.set(session.id, done);
    }
    this.archive.add(session.snapshot, session.keyDigest, session.boundedLogs());
  }

  /** Resolves once the claim of the ended session `id` is let go (its shared profile stored). */
  async claimReleased(id: string): Promise<void> {
    await this.releasing.get(id);
  }

  /** Resolves once every ended session's claim is let go. */
  async claimsReleased(): Promise<void> {
    await Promise.allSettled([...this.releasing.values()]);
  }
}

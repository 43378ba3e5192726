import type { Clock, CreateBrowserRequest, Logger } from '@browserdeck/domain';
import type { SessionShares } from '../../shared-state/SessionShares.ts';
import { ownerShareError } from './admissionError.ts';

/**
 * The local provider's side of the account's share across instances (`SessionShares`): a create
 * that the instance's own admission let through claims its slot (`claim`, refusing as admission
 * does: `owner_share`), and gives it back when its session reads as ended or the create fails
 * (`free`). Frees are not waited for by the session ending; a claim waits for this instance's frees
 * still under way, so a slot released here is free before the next create here counts.
 */
export class ClusterShare {
  private readonly deps: {
    shares: SessionShares;
    maxPerOwner: number;
    instanceId: string;
    clock: Clock;
    logger: Logger;
  };
  private readonly freeing = new Set<Promise<void>>();

  constructor(deps: ClusterShare['deps']) {
    this.deps = deps;
  }

  /** Claims `request`'s slot for a session of `timeoutSec`; throws the `owner_share` refusal when the account's share is taken. */
  async claim(request: CreateBrowserRequest, timeoutSec: number): Promise<void> {
    await this.settled();
    const { shares, maxPerOwner, instanceId, clock } = this.deps;
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + timeoutSec * 1000);
    const { sessionId, ownerId } = request;
    const answer = await shares.claim(
      { sessionId, ownerId, instanceId, createdAt: now, expiresAt },
      maxPerOwner,
    );
    if (answer.granted) return;
    // The account's deadlines on every instance: the soonest frees a slot.
    throw ownerShareError(maxPerOwner, answer.expiries, clock.now());
  }

  /** Gives the session's slot back (a failure is logged: the slot stops counting past its deadline). */
  free(sessionId: string): void {
    const freeing = this.deps.shares
      .free(sessionId)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, sessionId }, 'could not free the session’s share of its account'),
      );
    this.freeing.add(freeing);
    void freeing.finally(() => this.freeing.delete(freeing));
  }

  /** Resolves once the frees under way are done. */
  async settled(): Promise<void> {
    await Promise.all([...this.freeing]);
  }
}

import type { Clock, CreateBrowserRequest } from '@browserdeck/domain';
import type { ContextClaim } from '../profiles/ContextClaim.ts';
import { admissionError } from './admissionError.ts';
import { type Admission, admitSession } from './admitSession.ts';
import { OwnerSlots } from './OwnerSlots.ts';
import type { SessionRegistry } from './SessionRegistry.ts';

/** An admitted create: whether it takes a warm browser or launches one (and evicts a warm one). */
export type Admitted = Extract<Admission, { admitted: true }>;

/**
 * Admits local sessions (`admitSession`): the provider's total, the account's fair share and the
 * context's lock, from the live sessions, the slots being reserved by creates under way and the warm
 * browsers. A refusal is the error a client gets (`admissionError`); an admission takes the context
 * claim and reserves the account's slot until `settle`.
 */
export class SessionAdmission {
  private readonly deps: { maxSessions: number; registry: SessionRegistry; warm: () => number; clock: Clock };
  private readonly slots: OwnerSlots;

  constructor(deps: SessionAdmission['deps'] & { maxSessionsPerOwner?: number | undefined }) {
    this.deps = deps;
    this.slots = new OwnerSlots(deps.maxSessionsPerOwner ?? Math.max(1, Math.floor(deps.maxSessions / 2)));
  }

  /** Slots reserved by creates under way (not yet sessions). */
  get reserved(): number {
    return this.slots.reserved;
  }

  /** A session that reads as ended frees its account's share at once (its browser may still be stopping). */
  free(ownerId: string): void {
    this.slots.free(ownerId);
  }

  admit(request: CreateBrowserRequest, claim: ContextClaim | null, warmFits: boolean): Admitted {
    const { maxSessions, registry } = this.deps;
    const { slots } = this;
    const admission = admitSession(
      {
        maxSessions,
        sessions: registry.size + slots.reserved,
        warm: this.deps.warm(),
        maxPerOwner: slots.maxPerOwner,
        ownerHeld: slots.held(request.ownerId),
      },
      // Warm browsers have Chromium's default window, a fresh profile and no extension.
      { warmFits: claim === null && request.viewport === null && warmFits, contextFree: claim?.free ?? null },
    );
    if (!admission.admitted)
      throw admissionError(admission.refusal, {
        maxSessions,
        maxPerOwner: slots.maxPerOwner,
        contextId: request.contextId,
        expiries: registry.expiries(),
        ownerExpiries: registry.expiries(request.ownerId),
        now: this.deps.clock.now(),
      });
    claim?.take();
    slots.reserve(request.ownerId);
    return admission;
  }

  /** The create's end: its claim and slot kept when the session opened, given back when not (the claim's hold across the cluster too). */
  async settle(request: CreateBrowserRequest, claim: ContextClaim | null, opened: boolean): Promise<void> {
    this.slots.settle(request.ownerId, opened);
    await claim?.settle(opened);
  }
}

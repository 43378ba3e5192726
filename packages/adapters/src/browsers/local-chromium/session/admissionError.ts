import { ProviderError } from '@browserdeck/domain';
import type { AdmissionRefusal } from './admitSession.ts';

/** What the refusal's message and `Retry-After` are made of. */
export interface AdmissionFacts {
  readonly maxSessions: number;
  readonly maxPerOwner: number;
  readonly contextId: string | null;
  /** Deadlines of every running session, and of the asking account's. */
  readonly expiries: readonly (Date | null)[];
  readonly ownerExpiries: readonly (Date | null)[];
  readonly now: Date;
}

/**
 * The provider error for a refused admission (`admitSession`): `provider_rate_limited`, with a retry
 * after the soonest deadline that frees a slot of the kind refused (the host's for `capacity`, the
 * account's own for `owner_share`: between 1 and 60 seconds, as a release may free one sooner), and
 * after 5 seconds for a busy context.
 */
export function admissionError(refusal: AdmissionRefusal, facts: AdmissionFacts): ProviderError {
  if (refusal === 'capacity')
    return capacityError(
      `The local provider is running its maximum of ${facts.maxSessions} sessions`,
      facts.expiries,
      facts.now,
    );
  if (refusal === 'owner_share') return ownerShareError(facts.maxPerOwner, facts.ownerExpiries, facts.now);
  return contextBusyError(facts.contextId);
}

/** A create refused because its account holds its share (`expiries`: the deadlines of its sessions). */
export function ownerShareError(
  maxPerOwner: number,
  expiries: readonly (Date | null)[],
  now: Date,
): ProviderError {
  return capacityError(
    `This account is running its fair share of ${maxPerOwner} local sessions across its projects (LOCAL_MAX_SESSIONS_PER_OWNER)`,
    expiries,
    now,
  );
}

/** A create refused because its context is held (a session saves to it, or it is being deleted). */
export function contextBusyError(contextId: string | null): ProviderError {
  const message = `Context ${contextId} is in use by another session of this project, or being deleted.`;
  return new ProviderError('provider_rate_limited', message, { retryAfterSec: 5 });
}

function capacityError(reason: string, expiries: readonly (Date | null)[], now: Date): ProviderError {
  const soonest = Math.min(...expiries.map((d) => d?.getTime() ?? now.getTime()), now.getTime() + 60_000);
  const retryAfterSec = Math.min(60, Math.max(1, Math.ceil((soonest - now.getTime()) / 1000)));
  return new ProviderError('provider_rate_limited', `${reason}; release one or retry later.`, {
    retryAfterSec,
  });
}

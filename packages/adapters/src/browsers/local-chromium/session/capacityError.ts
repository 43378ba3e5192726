import { ProviderError } from '@browserdeck/domain';

/**
 * The refusal when every slot is taken: `provider_rate_limited`, retry after the soonest deadline of
 * a running session (between 1 and 60 seconds; a release may free a slot sooner).
 */
export function capacityError(reason: string, expiries: readonly (Date | null)[], now: Date): ProviderError {
  const soonest = Math.min(...expiries.map((d) => d?.getTime() ?? now.getTime()), now.getTime() + 60_000);
  const retryAfterSec = Math.min(60, Math.max(1, Math.ceil((soonest - now.getTime()) / 1000)));
  return new ProviderError('provider_rate_limited', `${reason}; release one or retry later.`, {
    retryAfterSec,
  });
}

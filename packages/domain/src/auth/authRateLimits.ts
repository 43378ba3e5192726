import type { RateLimit } from '../shared/RateLimiter.ts';

/** The limits on sign-in and sign-up attempts (http-api.md §3). */
export interface AuthRateLimits {
  signInPerEmail: RateLimit;
  signUpPerEmail: RateLimit;
  perAddress: RateLimit;
}

/** http-api.md §3 defaults: 10 sign-in attempts a minute per e-mail, 60 a minute per client address. */
export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  signInPerEmail: { limit: 10, windowSec: 60 },
  signUpPerEmail: { limit: 10, windowSec: 60 },
  perAddress: { limit: 60, windowSec: 60 },
};

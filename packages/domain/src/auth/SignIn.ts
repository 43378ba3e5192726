import type { RateLimiter } from '../shared/RateLimiter.ts';
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './authRateLimits.ts';
import { checkSignInEmail, normalizeEmail } from './authRules.ts';
import { enforceRateLimits } from './enforceAuthRateLimits.ts';
import type { IdentityProvider, TokenGrant } from './IdentityProvider.ts';

export interface SignInInput {
  email: string;
  password: string;
  clientAddress?: string | undefined;
}

/** What SignIn needs. */
export interface SignInDeps {
  identity: IdentityProvider;
  rateLimiter: RateLimiter;
  rateLimits?: AuthRateLimits;
}

/** Exchanges e-mail and password for a token pair, within the sign-in rate limits. */
export class SignIn {
  private readonly deps: SignInDeps;

  constructor(deps: SignInDeps) {
    this.deps = deps;
  }

  async execute(input: SignInInput): Promise<TokenGrant> {
    const email = normalizeEmail(input.email);
    checkSignInEmail(email);
    const limits = this.deps.rateLimits ?? DEFAULT_AUTH_RATE_LIMITS;
    await enforceRateLimits(this.deps.rateLimiter, [
      [`signin:email:${email}`, limits.signInPerEmail],
      ...(input.clientAddress ? [[`auth:addr:${input.clientAddress}`, limits.perAddress] as const] : []),
    ]);
    return this.deps.identity.signIn(email, input.password);
  }
}

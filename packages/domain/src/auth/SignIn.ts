import type { RateLimiter } from '../shared/RateLimiter.ts';
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './authRateLimits.ts';
import { checkSignInEmail, normalizeEmail } from './authRules.ts';
import { enforceRateLimits } from './enforceAuthRateLimits.ts';
import type { IdentityProvider, TokenGrant } from './IdentityProvider.ts';
import { refuseDisabledAccount } from './refuseDisabledAccount.ts';
import type { UserRepository } from './UserRepository.ts';

export interface SignInInput {
  email: string;
  password: string;
  clientAddress?: string | undefined;
}

/** What SignIn needs. */
export interface SignInDeps {
  identity: IdentityProvider;
  users: UserRepository;
  rateLimiter: RateLimiter;
  rateLimits?: AuthRateLimits;
}

/**
 * Exchanges e-mail and password for a token pair, within the sign-in rate limits; a disabled
 * account (SPEC §17) is refused with `account_disabled` (its tokens would be refused anyway).
 */
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
    const grant = await this.deps.identity.signIn(email, input.password);
    await refuseDisabledAccount(this.deps.users, grant.user.id);
    return grant;
  }
}

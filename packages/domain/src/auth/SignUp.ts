import type { Clock } from '../shared/Clock.ts';
import type { RateLimiter } from '../shared/RateLimiter.ts';
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './authRateLimits.ts';
import { checkSignUp, normalizeEmail } from './authRules.ts';
import { enforceRateLimits } from './enforceAuthRateLimits.ts';
import type { IdentityProvider } from './IdentityProvider.ts';
import { User, type UserIdentity } from './User.ts';
import type { UserRepository } from './UserRepository.ts';

export interface SignUpInput {
  email: string;
  password: string;
  metadata?: Record<string, unknown> | undefined;
  /** The caller's network address, for the per-address limit; absent for in-process callers. */
  clientAddress?: string | undefined;
}

/** What SignUp needs. */
export interface SignUpDeps {
  identity: IdentityProvider;
  users: UserRepository;
  rateLimiter: RateLimiter;
  clock: Clock;
  rateLimits?: AuthRateLimits;
}

/** Creates a user with the identity provider and records it in the service's own users. */
export class SignUp {
  private readonly deps: SignUpDeps;

  constructor(deps: SignUpDeps) {
    this.deps = deps;
  }

  async execute(input: SignUpInput): Promise<{ user: UserIdentity }> {
    const email = normalizeEmail(input.email);
    const metadata = input.metadata ?? {};
    checkSignUp({ email, password: input.password, metadata });
    const limits = this.deps.rateLimits ?? DEFAULT_AUTH_RATE_LIMITS;
    await enforceRateLimits(this.deps.rateLimiter, [
      [`signup:email:${email}`, limits.signUpPerEmail],
      ...(input.clientAddress ? [[`auth:addr:${input.clientAddress}`, limits.perAddress] as const] : []),
    ]);
    const identity = await this.deps.identity.signUp({ email, password: input.password, metadata });
    await this.deps.users.ensure(
      User.create({ id: identity.id, email: identity.email, createdAt: this.deps.clock.now() }),
    );
    return { user: { id: identity.id, email: identity.email } };
  }
}

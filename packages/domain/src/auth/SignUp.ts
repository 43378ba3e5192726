import type { InvitationRepository } from '../members/InvitationRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { RateLimiter } from '../shared/RateLimiter.ts';
import type { AccountAdmission } from './AccountAdmission.ts';
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
  /** An invitation token (`bdi_…`): what `SIGNUP=invite|closed` asks for (SPEC §17). */
  invitation?: string | undefined;
  /** The caller's network address, for the per-address limit; absent for in-process callers. */
  clientAddress?: string | undefined;
}

/** What SignUp needs. */
export interface SignUpDeps {
  identity: IdentityProvider;
  users: UserRepository;
  invitations: InvitationRepository;
  /** Who may make an account (`SIGNUP`, `ADMIN_EMAILS`). */
  admission: AccountAdmission;
  rateLimiter: RateLimiter;
  clock: Clock;
  rateLimits?: AuthRateLimits;
}

/**
 * Creates a user with the identity provider and records it in the service's own users, if the
 * sign-up mode admits them (`AccountAdmission`; else 403 `signup_closed`). An operator's invitation
 * it used is spent; a project invitation stays for the accept link.
 */
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
    const spent = await this.deps.admission.admitSignUp(email, input.invitation);
    const identity = await this.deps.identity.signUp({ email, password: input.password, metadata });
    await this.deps.users.ensure(
      User.create({ id: identity.id, email: identity.email, createdAt: this.deps.clock.now() }),
    );
    if (spent) await this.deps.invitations.accept(spent.id, identity.id, this.deps.clock.now());
    return { user: { id: identity.id, email: identity.email } };
  }
}

import type { ApiKeySecrets } from '../apiKeys/ApiKeySecrets.ts';
import type { Invitation } from '../members/Invitation.ts';
import type { InvitationRepository } from '../members/InvitationRepository.ts';
import { INVITATION_TOKEN_PATTERN } from '../members/memberRules.ts';
import type { Clock } from '../shared/Clock.ts';
import { ForbiddenError } from '../shared/DomainError.ts';
import type { SignupMode } from './signupModes.ts';

/** What an `AccountAdmission` needs. */
export interface AccountAdmissionDeps {
  invitations: InvitationRepository;
  /** Digests invitation tokens, as for API keys. */
  secrets: ApiKeySecrets;
  clock: Clock;
  /** `SIGNUP`; default `open`. */
  signupMode?: SignupMode | undefined;
  /** The operators' e-mails (`ADMIN_EMAILS`), normalised. */
  adminEmails?: readonly string[] | undefined;
}

/**
 * Who may make an account (SPEC §17), one rule for sign-up and for the first sync of an account an
 * external identity provider made: `open` admits anyone; `invite` needs an open invitation for the
 * e-mail (a project's or an operator's); `closed` needs an operator's. Operators are always admitted,
 * so a closed installation can get its first one. Refused: 403 `signup_closed`.
 */
export class AccountAdmission {
  private readonly deps: AccountAdmissionDeps;
  private readonly operators: ReadonlySet<string>;

  constructor(deps: AccountAdmissionDeps) {
    this.deps = deps;
    this.operators = new Set(deps.adminEmails ?? []);
  }

  get mode(): SignupMode {
    return this.deps.signupMode ?? 'open';
  }

  /** The operators' e-mails. */
  operatorEmails(): readonly string[] {
    return [...this.operators];
  }

  /** Whether `email` (normalised) names an operator. */
  isOperator(email: string): boolean {
    return this.operators.has(email);
  }

  /**
   * Admits a sign-up for `email` with the invitation `token` it came with, if any. Answers the
   * operator's invitation the sign-up uses up (null when none), whatever the mode: the caller marks
   * it accepted, so an operator's link works once.
   */
  async admitSignUp(email: string, token: string | undefined): Promise<Invitation | null> {
    const invitation = token === undefined ? null : await this.openInvitation(email, token);
    const spent = invitation?.projectId === null ? invitation : null;
    if (this.mode === 'open' || this.isOperator(email)) return spent;
    if (token === undefined) throw closed(this.mode, 'a sign-up needs an invitation token');
    if (!invitation) {
      throw closed(this.mode, 'the invitation is unknown, used, revoked, expired or for another e-mail');
    }
    if (this.mode === 'closed' && invitation.projectId !== null) {
      throw closed(this.mode, 'only an operator’s invitation makes an account');
    }
    return spent;
  }

  /** The open invitation `token` names for `email`; null when it names none. */
  private async openInvitation(email: string, token: string): Promise<Invitation | null> {
    if (!INVITATION_TOKEN_PATTERN.test(token)) return null;
    const invitation = await this.deps.invitations.findByDigest(this.deps.secrets.digest(token));
    return invitation?.isOpenAt(this.deps.clock.now()) && invitation.email === email ? invitation : null;
  }

  /** Admits the first sync of an account the identity provider made (no token: the e-mail's invitations). */
  async admitSync(email: string): Promise<void> {
    if (this.mode === 'open' || this.isOperator(email)) return;
    const invited = await this.deps.invitations.hasOpenFor(
      email,
      this.deps.clock.now(),
      this.mode === 'closed',
    );
    if (!invited) throw closed(this.mode, 'this account was not invited');
  }
}

function closed(mode: SignupMode, why: string): ForbiddenError {
  const rule =
    mode === 'invite' ? 'Sign-up is by invitation' : 'Sign-up is closed: only operators create accounts';
  return new ForbiddenError('signup_closed', `${rule}; ${why}.`);
}

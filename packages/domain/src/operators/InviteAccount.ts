import type { Caller } from '../access/Caller.ts';
import { checkAccountEmail, normalizeEmail } from '../auth/authRules.ts';
import { Invitation } from '../members/Invitation.ts';
import type { CreatedInvitation } from '../members/InviteMember.ts';
import { INVITATION_MARKER, INVITATION_TTL_MS } from '../members/memberRules.ts';
import { ConflictError } from '../shared/DomainError.ts';
import type { OperatorsDeps } from './operatorsDeps.ts';
import { requireOperator } from './requireOperator.ts';

/**
 * An operator's invitation to make an account (SPEC §17): a link, shown once, that lets `email`
 * sign up whatever `SIGNUP` says. Refused with `email_taken` when the account exists.
 */
export class InviteAccount {
  private readonly deps: Pick<
    OperatorsDeps,
    'users' | 'admission' | 'invitations' | 'secrets' | 'audit' | 'ids' | 'clock'
  >;

  constructor(
    deps: Pick<OperatorsDeps, 'users' | 'admission' | 'invitations' | 'secrets' | 'audit' | 'ids' | 'clock'>,
  ) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; email: string }): Promise<CreatedInvitation> {
    const operator = await requireOperator(this.deps, input.caller);
    const email = normalizeEmail(input.email);
    checkAccountEmail(email);
    if (await this.deps.users.findByEmail(email)) {
      throw new ConflictError('email_taken', 'An account with this e-mail exists already.');
    }
    const now = this.deps.clock.now();
    const token = this.deps.secrets.generate(INVITATION_MARKER);
    const invitation = Invitation.create({
      id: this.deps.ids.next(),
      projectId: null,
      email,
      role: null,
      digest: this.deps.secrets.digest(token),
      invitedBy: operator.id,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    const change = {
      projectId: null,
      action: 'account.invite',
      target: { type: 'invitation', id: invitation.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => this.deps.invitations.add(invitation), true);
    return { invitation, token };
  }
}

import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import { checkAccountEmail, normalizeEmail } from '../auth/authRules.ts';
import { ConflictError } from '../shared/DomainError.ts';
import { Invitation } from './Invitation.ts';
import {
  checkMemberRole,
  INVITATION_MARKER,
  INVITATION_TTL_MS,
  MEMBERS_PER_PROJECT_MAX,
} from './memberRules.ts';
import type { MembersDeps } from './membersDeps.ts';

/** A new invitation with its token, which the inviter sees this once (nothing is e-mailed). */
export interface CreatedInvitation {
  readonly invitation: Invitation;
  readonly token: string;
}

/**
 * Invites an e-mail to a project with a role (SPEC §17; admins): an expiring, single-use,
 * revocable link. Refused with `already_member` when that account is a member, and with
 * `member_limit_reached` when members and open invitations would pass `MEMBERS_PER_PROJECT_MAX`.
 */
export class InviteMember {
  private readonly deps: MembersDeps;

  constructor(deps: MembersDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    email: string;
    role: string;
  }): Promise<CreatedInvitation> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const email = normalizeEmail(input.email);
    checkAccountEmail(email);
    const role = checkMemberRole(input.role);
    const { members, invitations, users, clock } = this.deps;
    const now = clock.now();
    const existing = await users.findByEmail(email);
    if (existing && (await members.find(project.id, existing.id))) {
      throw new ConflictError('already_member', 'That account is already a member of the project.');
    }
    const taken = (await members.count(project.id)) + (await invitations.countOpen(project.id, now));
    if (taken >= MEMBERS_PER_PROJECT_MAX) {
      throw new ConflictError(
        'member_limit_reached',
        `A project has at most ${MEMBERS_PER_PROJECT_MAX} members and open invitations; remove one or revoke an invitation first.`,
      );
    }
    const token = this.deps.secrets.generate(INVITATION_MARKER);
    const invitation = Invitation.create({
      id: this.deps.ids.next(),
      projectId: project.id,
      email,
      role,
      digest: this.deps.secrets.digest(token),
      invitedBy: inviterOf(input.caller, project.ownerId),
      now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    const change = {
      projectId: project.id,
      action: 'member.invite',
      target: { type: 'invitation', id: invitation.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => invitations.add(invitation));
    return { invitation, token };
  }
}

/** Who an invitation says invited: the user, or (for the service) the project's owner. */
function inviterOf(caller: Caller, ownerId: string): string {
  return caller.kind === 'user' ? caller.userId : ownerId;
}

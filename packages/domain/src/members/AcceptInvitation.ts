import { type Caller, requireUser } from '../access/Caller.ts';
import type { ProjectGrant } from '../access/ProjectGrant.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../shared/DomainError.ts';
import { INVITATION_TOKEN_PATTERN } from './memberRules.ts';
import type { MembersDeps } from './membersDeps.ts';

/**
 * Joins a project by an invitation link (SPEC §17), as the signed-in invitee: the invitation must be
 * open (unknown, used, revoked or expired: 404) and for the caller's e-mail (else 403
 * `invitation_email_mismatch`); a member already is 409 `already_member`. Single-use: of two accepts
 * at once, one joins. Answers the project with the role joined.
 */
export class AcceptInvitation {
  private readonly deps: MembersDeps;

  constructor(deps: MembersDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; token: string }): Promise<ProjectGrant> {
    const user = requireUser(input.caller, 'Accepting an invitation needs a signed-in user; API keys');
    const { invitations, members, projects, clock } = this.deps;
    const now = clock.now();
    const invitation = INVITATION_TOKEN_PATTERN.test(input.token)
      ? await invitations.findByDigest(this.deps.secrets.digest(input.token))
      : null;
    if (!invitation?.isOpenAt(now) || invitation.projectId === null || invitation.role === null) {
      throw new NotFoundError('Invitation');
    }
    const account = await this.deps.users.findById(user.userId);
    if (!account || account.email !== invitation.email) {
      throw new ForbiddenError(
        'invitation_email_mismatch',
        'This invitation is for another e-mail address; sign in with the account it was sent to.',
      );
    }
    const access = await projects.findAccess(invitation.projectId, user.userId);
    if (!access) throw new NotFoundError('Invitation');
    if (access.role) throw new ConflictError('already_member', 'You are already a member of this project.');
    const { projectId, role, id } = invitation;
    const change = { projectId, action: 'member.join', target: { type: 'user', id: user.userId } } as const;
    await this.deps.audit.record(input.caller, change, async () => {
      if (!(await invitations.accept(id, user.userId, now))) throw new NotFoundError('Invitation');
      const added = await members.add({ projectId, userId: user.userId, role, now });
      if (added === 'exists')
        throw new ConflictError('already_member', 'You are already a member of this project.');
    });
    return { project: access.project, role };
  }
}

import { z } from 'zod';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { presentProject } from '../projects/presentProject.ts';
import { ProjectListItemSchema } from '../projects/projectSchemas.ts';
import { emptyBody, projectIdParams } from '../shared/commonSchemas.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import {
  ChangeMemberRoleBody,
  CreatedInvitationSchema,
  InvitationSchema,
  InviteMemberBody,
  invitationParams,
  invitationTokenParams,
  MemberSchema,
  memberParams,
  TransferProjectBody,
} from './memberSchemas.ts';
import { presentCreatedInvitation, presentInvitation, presentMember } from './presentMember.ts';

/** The use cases behind a project's members and invitations. */
export type MemberRouteDeps = UseCasesOf<'members'> & UseCasesOf<'projects', 'transfer'>;

/** These routes' OpenAPI tag and what it groups. */
export const MEMBERS_TAG = {
  name: 'Members',
  description:
    'A project’s members, each with one role (owner, admin, developer, viewer), and the invitation links that add them. Nothing is e-mailed: an invitation’s link is shown once, to the inviter.',
};
const TAG = MEMBERS_TAG.name;
const BASE = '/v1/projects/{project_id}/members';
const INVITATIONS = '/v1/projects/{project_id}/invitations';

/** `/v1/projects/{project_id}/members`, `…/invitations`, `/v1/invitations/{token}:accept` and `:transfer` (SPEC §17). */
export function memberRoutes(deps: MemberRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      operationId: 'listMembers',
      role: 'viewer',
      summary: 'List a project’s members, the owner first',
      description: 'Every member with their role; any member (or the project’s key) may read it.',
      tag: TAG,
      auth: 'userOrKey',
      params: projectIdParams,
      responses: { 200: { description: 'The members.', schema: z.array(MemberSchema) } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const members = await deps.list.execute({ caller, projectId: params.project_id });
        return { status: 200, body: members.map(presentMember) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      operationId: 'inviteMember',
      role: 'admin',
      summary: 'Invite someone to the project',
      description:
        'Answers an invitation link, shown this once: hand it to the invitee, who accepts it signed in with that e-mail. It works once, for 7 days, until revoked.',
      tag: TAG,
      auth: 'user',
      params: projectIdParams,
      body: InviteMemberBody,
      responses: { 201: { description: 'The invitation with its link.', schema: CreatedInvitationSchema } },
      errors: ['not_found', 'already_member', 'member_limit_reached'],
      handle: async ({ caller, params, body, publicUrls }) => {
        const created = await deps.invite.execute({ caller, projectId: params.project_id, ...body });
        return { status: 201, body: presentCreatedInvitation(created, publicUrls) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${BASE}/{user_id}`,
      operationId: 'changeMemberRole',
      role: 'admin',
      summary: 'Change a member’s role',
      description: 'The owner’s role changes only by transfer (409 `owner_must_transfer`).',
      tag: TAG,
      auth: 'user',
      params: memberParams,
      body: ChangeMemberRoleBody,
      responses: { 200: { description: 'The member.', schema: MemberSchema } },
      errors: ['not_found', 'owner_must_transfer'],
      handle: async ({ caller, params, body }) => {
        const member = await deps.changeRole.execute({
          caller,
          projectId: params.project_id,
          userId: params.user_id,
          role: body.role,
        });
        return { status: 200, body: presentMember(member) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/{user_id}`,
      operationId: 'removeMember',
      role: 'admin',
      summary: 'Remove a member, or leave',
      description:
        'Admins remove any member but the owner (409 `owner_must_transfer`); any member may remove themselves. Their live-view links and streams end at once, on every instance.',
      tag: TAG,
      auth: 'user',
      params: memberParams,
      responses: { 204: { description: 'Removed; no body.' } },
      errors: ['not_found', 'owner_must_transfer'],
      handle: async ({ caller, params }) => {
        await deps.remove.execute({ caller, projectId: params.project_id, userId: params.user_id });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'GET',
      path: INVITATIONS,
      operationId: 'listInvitations',
      role: 'admin',
      summary: 'List a project’s open invitations, newest first',
      description: 'Without their links, which were shown once.',
      tag: TAG,
      auth: 'user',
      params: projectIdParams,
      responses: { 200: { description: 'The open invitations.', schema: z.array(InvitationSchema) } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const invitations = await deps.listInvitations.execute({ caller, projectId: params.project_id });
        return { status: 200, body: invitations.map(presentInvitation) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${INVITATIONS}/{invitation_id}`,
      operationId: 'revokeInvitation',
      role: 'admin',
      summary: 'Revoke an open invitation',
      description: 'Its link stops working at once.',
      tag: TAG,
      auth: 'user',
      params: invitationParams,
      responses: { 204: { description: 'Revoked; its link stops working. No body.' } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        await deps.revokeInvitation.execute({
          caller,
          projectId: params.project_id,
          invitationId: params.invitation_id,
        });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/invitations/{token}:accept',
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation and join its project',
      description:
        'By the signed-in invitee: the account’s e-mail must be the invitation’s (403 `invitation_email_mismatch`). An unknown, used, revoked or expired invitation is a 404.',
      tag: TAG,
      auth: 'user',
      params: invitationTokenParams,
      body: emptyBody,
      responses: {
        200: { description: 'The project joined, with the role.', schema: ProjectListItemSchema },
      },
      errors: ['not_found', 'invitation_email_mismatch', 'already_member'],
      handle: async ({ caller, params }) => {
        const { project, role } = await deps.accept.execute({ caller, token: params.token });
        return { status: 200, body: { ...presentProject(project), role } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/projects/{project_id}:transfer',
      operationId: 'transferProject',
      role: 'owner',
      summary: 'Hand the project to another member',
      description:
        'They become its owner, and the caller an admin. From then on its sessions and runs count against the new owner’s share.',
      tag: TAG,
      auth: 'user',
      params: projectIdParams,
      body: TransferProjectBody,
      responses: {
        200: { description: 'The project, with the caller’s new role.', schema: ProjectListItemSchema },
      },
      errors: ['not_found', 'slug_taken'],
      handle: async ({ caller, params, body }) => {
        const { project, role } = await deps.transfer.execute({
          caller,
          projectId: params.project_id,
          userId: body.userId,
        });
        return { status: 200, body: { ...presentProject(project), role } };
      },
    }),
  ];
}

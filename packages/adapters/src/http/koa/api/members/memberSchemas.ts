import { INVITATION_TOKEN_PATTERN, MEMBER_ROLES, PROJECT_ROLES } from '@browserdeck/domain';
import { z } from 'zod';
import { projectIdParams, timestamp, uuidParam } from '../shared/commonSchemas.ts';

const memberRole = z.enum(MEMBER_ROLES, { message: `must be one of ${MEMBER_ROLES.join(', ')}` });

/** `/v1/projects/{project_id}/members/{user_id}` */
export const memberParams = projectIdParams.extend({ user_id: uuidParam });
/** `/v1/projects/{project_id}/invitations/{invitation_id}` */
export const invitationParams = projectIdParams.extend({ invitation_id: uuidParam });
/** `/v1/invitations/{token}:accept` */
export const invitationTokenParams = z.object({
  token: z.string().regex(INVITATION_TOKEN_PATTERN, 'must be an invitation token (bdi_…)'),
});

/** `POST …/members` body: whom to invite, with which role. */
export const InviteMemberBody = z.strictObject({
  email: z
    .string('must be a string')
    .max(1024)
    .meta({ description: 'The e-mail of the account that may accept.' }),
  role: memberRole.meta({
    description: 'The role the invitee gets: admin, developer or viewer (owner passes by transfer).',
  }),
});

/** `PATCH …/members/{user_id}` body. */
export const ChangeMemberRoleBody = z.strictObject({ role: memberRole });

/** `POST /v1/projects/{project_id}:transfer` body. */
export const TransferProjectBody = z.strictObject({
  userId: uuidParam.meta({
    description: 'The member who becomes the owner; the old owner becomes an admin.',
  }),
});

/** A project member. */
export const MemberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    role: z.enum(PROJECT_ROLES),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Member' });

/** An open invitation, without its link (shown only once, to the inviter). */
export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: memberRole
      .nullable()
      .meta({ description: 'null for an operator’s invitation to make an account.' }),
    createdAt: timestamp,
    expiresAt: timestamp,
  })
  .meta({ id: 'Invitation' });

/** A new invitation with its link: shown this once; nothing is e-mailed. */
export const CreatedInvitationSchema = InvitationSchema.extend({
  url: z.string().meta({
    description: 'The link to hand to the invitee: the console’s accept page, the token in its fragment.',
  }),
  token: z.string().regex(INVITATION_TOKEN_PATTERN).meta({
    description:
      'The invitation token (`bdi_…`) the link carries, for `POST /v1/invitations/{token}:accept` or a sign-up.',
  }),
}).meta({ id: 'CreatedInvitation' });

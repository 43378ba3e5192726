import type { Invitation, ProjectMember } from '@browserdeck/domain';
import type { z } from 'zod';
import type { PublicUrls } from '../../kernel/proxy/PublicUrls.ts';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { CreatedInvitationSchema, InvitationSchema, MemberSchema } from './memberSchemas.ts';

/** A member as the API shows it. */
export function presentMember(member: ProjectMember): z.output<typeof MemberSchema> {
  return {
    userId: member.userId,
    email: member.email,
    role: member.role,
    createdAt: isoTimestamp(member.createdAt),
    updatedAt: isoTimestamp(member.updatedAt),
  };
}

/** An invitation as the API shows it: never its token or digest. */
export function presentInvitation(invitation: Invitation): z.output<typeof InvitationSchema> {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: isoTimestamp(invitation.createdAt),
    expiresAt: isoTimestamp(invitation.expiresAt),
  };
}

/**
 * A new invitation with its link (SPEC §17), under the request's public URL: the console's accept
 * page for a project's (`/console/invitation#token=…`), its sign-up page for an operator's
 * (`/console/signup#invitation=…`). The token rides in the fragment, so it reaches no server log.
 */
export function presentCreatedInvitation(
  created: { invitation: Invitation; token: string },
  urls: PublicUrls,
): z.output<typeof CreatedInvitationSchema> {
  const url = new URL(urls.base);
  const forAccount = created.invitation.projectId === null;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/console/${forAccount ? 'signup' : 'invitation'}`;
  url.hash = `${forAccount ? 'invitation' : 'token'}=${created.token}`;
  return { ...presentInvitation(created.invitation), url: url.toString(), token: created.token };
}

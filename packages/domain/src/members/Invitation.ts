import type { MemberRole } from '../access/projectRoles.ts';
import type { EntityState } from '../shared/EntityState.ts';

/** An invitation's stored fields: what `Invitation.restore` takes. */
export type InvitationState = EntityState<Invitation>;

/**
 * An invitation link (SPEC §17): to join a project with a role (`projectId` set), or, from an
 * operator, to make an account (`projectId` and `role` null). Only the SHA-256 `digest` of its
 * token is kept; the link is shown once, to whoever made it. Single-use, expiring, revocable.
 */
export class Invitation {
  readonly id!: string;
  readonly projectId!: string | null;
  /** The e-mail it is for (normalised); only that account may use it. */
  readonly email!: string;
  readonly role!: MemberRole | null;
  readonly digest!: string;
  /** Who made it: a user's id. */
  readonly invitedBy!: string;
  readonly createdAt!: Date;
  readonly expiresAt!: Date;
  readonly acceptedAt!: Date | null;
  readonly acceptedBy!: string | null;
  readonly revokedAt!: Date | null;

  private constructor() {}

  /** A new, open invitation. */
  static create(props: {
    id: string;
    projectId: string | null;
    email: string;
    role: MemberRole | null;
    digest: string;
    invitedBy: string;
    now: Date;
    expiresAt: Date;
  }): Invitation {
    const { now, ...fields } = props;
    return Object.assign(new Invitation(), {
      ...fields,
      createdAt: now,
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    });
  }

  /** For repositories: the invitation `state` holds, as it was stored. */
  static restore(state: InvitationState): Invitation {
    return Object.assign(new Invitation(), state);
  }

  /** Whether it may still be used at `now`: not accepted, not revoked, not expired. */
  isOpenAt(now: Date): boolean {
    return this.acceptedAt === null && this.revokedAt === null && this.expiresAt.getTime() > now.getTime();
  }
}

import type { Invitation } from './Invitation.ts';

/** Where invitations are kept (SPEC §17). Reads go to the store every time, as for API keys. */
export interface InvitationRepository {
  add(invitation: Invitation): Promise<void>;
  /** The invitation whose token has `digest`, in whatever state; null when there is none. */
  findByDigest(digest: string): Promise<Invitation | null>;
  /** The project's invitations open at `now`, newest first. */
  listOpen(projectId: string, now: Date): Promise<Invitation[]>;
  /** How many of the project's invitations are open at `now`. */
  countOpen(projectId: string, now: Date): Promise<number>;
  /**
   * Whether an invitation for `email` is open at `now`: any (a project's or an operator's), or, with
   * `operatorOnly`, an operator's.
   */
  hasOpenFor(email: string, now: Date, operatorOnly?: boolean): Promise<boolean>;
  /**
   * Marks it accepted by `userId` if it is open at `now`: one conditional write, so of two
   * concurrent accepts exactly one answers true.
   */
  accept(invitationId: string, userId: string, now: Date): Promise<boolean>;
  /** Revokes one of the project's open invitations (`projectId` null: an operator's); false if none. */
  revoke(projectId: string | null, invitationId: string, now: Date): Promise<boolean>;
}

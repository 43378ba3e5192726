import type { Invitation, InvitationRepository } from '@browserdeck/domain';
import { writable } from '@browserdeck/domain';
import { cloneEntity } from './cloneEntity.ts';
import type { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';

const newestFirst = (a: Invitation, b: Invitation) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Invitations in a Map; stores copies. `accept` and `revoke` test and write in one step, as the
 * database's conditional updates do, so of two concurrent accepts one wins. Given `projects`, a
 * deleted project's invitations are gone with it, as the database's cascade takes them.
 */
export class InMemoryInvitationRepository implements InvitationRepository {
  private readonly invitations = new Map<string, Invitation>();
  private readonly projects: InMemoryProjectRepository | undefined;

  constructor(deps: { projects?: InMemoryProjectRepository | undefined } = {}) {
    this.projects = deps.projects;
  }

  async add(invitation: Invitation): Promise<void> {
    for (const other of this.invitations.values()) {
      if (other.id === invitation.id || other.digest === invitation.digest)
        throw new Error(`An invitation with id ${invitation.id} or its digest exists.`);
    }
    this.invitations.set(invitation.id, cloneEntity(invitation));
  }

  async findByDigest(digest: string): Promise<Invitation | null> {
    const found = this.stored().find((i) => i.digest === digest);
    return found ? cloneEntity(found) : null;
  }

  async listOpen(projectId: string, now: Date): Promise<Invitation[]> {
    return this.openIn(projectId, now).sort(newestFirst).map(cloneEntity);
  }

  async countOpen(projectId: string, now: Date): Promise<number> {
    return this.openIn(projectId, now).length;
  }

  async hasOpenFor(email: string, now: Date, operatorOnly = false): Promise<boolean> {
    return this.stored().some(
      (i) => i.email === email && i.isOpenAt(now) && (!operatorOnly || i.projectId === null),
    );
  }

  async accept(invitationId: string, userId: string, now: Date): Promise<boolean> {
    const stored = this.stored().find((i) => i.id === invitationId);
    if (!stored?.isOpenAt(now)) return false;
    Object.assign(writable(stored), { acceptedAt: now, acceptedBy: userId });
    return true;
  }

  async revoke(projectId: string | null, invitationId: string, now: Date): Promise<boolean> {
    const stored = this.stored().find((i) => i.id === invitationId);
    if (!stored || stored.projectId !== projectId || !stored.isOpenAt(now)) return false;
    writable(stored).revokedAt = now;
    return true;
  }

  private openIn(projectId: string, now: Date): Invitation[] {
    return this.stored().filter((i) => i.projectId === projectId && i.isOpenAt(now));
  }

  /** The stored invitations (the objects themselves), less those of a project that is gone. */
  private stored(): Invitation[] {
    const { projects } = this;
    return [...this.invitations.values()].filter(
      (i) => !projects || i.projectId === null || projects.membershipsOf(i.projectId) !== undefined,
    );
  }
}

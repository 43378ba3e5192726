import type { InvitationRepository, MemberRole } from '@browserdeck/domain';
import { Invitation } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh, empty invitation store, and a way to create the projects (and inviters) invitations name. */
export interface InvitationRepositoryFixture {
  invitations: InvitationRepository;
  /** Makes `projectId` exist, owned by `ownerId` (database stores need the rows for their foreign keys). */
  givenProject(projectId: string, ownerId: string): Promise<void>;
}

const INVITER = '0190d100-0000-7000-8000-0000000000f1';
const ACCEPTER = '0190d100-0000-7000-8000-0000000000a1';
const P1 = '0190d100-0000-7000-8000-0000000000b1';
const P2 = '0190d100-0000-7000-8000-0000000000b2';
const DAY_MS = 86_400_000;

/**
 * Behaviour every `InvitationRepository` must have (SPEC §17): round trips to the millisecond,
 * unique digests, open means neither accepted, revoked nor expired, and an accept is single-use
 * (one conditional write: of concurrent accepts exactly one wins).
 */
export function describeInvitationRepositoryContract(
  name: string,
  options: { create: () => Promise<InvitationRepositoryFixture> },
): void {
  describe(`InvitationRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-06-01T08:00:00.123Z');
    const at = (minute: number) => new Date(base + minute * 60_000);

    function invitation(
      props: {
        projectId?: string | null;
        email?: string;
        role?: MemberRole | null;
        minute?: number;
        ttlMs?: number;
      } = {},
    ): Invitation {
      seq++;
      const n = String(seq).padStart(12, '0');
      const projectId = props.projectId === undefined ? P1 : props.projectId;
      const now = at(props.minute ?? seq);
      return Invitation.create({
        id: `0190d100-0000-7000-8000-${n}`,
        projectId,
        email: props.email ?? `invitee-${seq}@example.com`,
        role: props.role !== undefined ? props.role : projectId === null ? null : 'developer',
        digest: `${'cd'.repeat(26)}${n}`,
        invitedBy: INVITER,
        now,
        expiresAt: new Date(now.getTime() + (props.ttlMs ?? 7 * DAY_MS)),
      });
    }

    async function given(): Promise<InvitationRepository> {
      const fixture = await options.create();
      await fixture.givenProject(P1, INVITER);
      await fixture.givenProject(P2, INVITER);
      return fixture.invitations;
    }

    it('keeps every field of a project’s and an operator’s invitation, found by digest', async () => {
      const invitations = await given();
      const project = invitation({ email: "o'neil+\\?@exämple.com", role: 'viewer' });
      const operator = invitation({ projectId: null });
      await invitations.add(project);
      await invitations.add(operator);
      const found = await invitations.findByDigest(project.digest);
      expect(found).toBeInstanceOf(Invitation);
      expect({ ...found }).toEqual({ ...project });
      expect({ ...(await invitations.findByDigest(operator.digest)) }).toEqual({ ...operator });
      expect((await invitations.findByDigest(operator.digest))?.role).toBeNull();
      expect(await invitations.findByDigest('ef'.repeat(32))).toBeNull();
    });

    it('refuses a second invitation with the same digest', async () => {
      const invitations = await given();
      const first = invitation();
      await invitations.add(first);
      await expect(invitations.add(Object.assign(invitation(), { digest: first.digest }))).rejects.toThrow();
      expect((await invitations.findByDigest(first.digest))?.id).toBe(first.id);
    });

    it('lists and counts a project’s open invitations, newest first', async () => {
      const invitations = await given();
      const older = invitation({ minute: 1 });
      const newer = invitation({ minute: 2 });
      const expired = invitation({ minute: 3, ttlMs: 60_000 });
      const accepted = invitation({ minute: 4 });
      const revoked = invitation({ minute: 5 });
      const elsewhere = invitation({ projectId: P2, minute: 6 });
      const operator = invitation({ projectId: null, minute: 7 });
      for (const i of [older, newer, expired, accepted, revoked, elsewhere, operator])
        await invitations.add(i);
      const now = at(10);
      expect(await invitations.accept(accepted.id, ACCEPTER, now)).toBe(true);
      expect(await invitations.revoke(P1, revoked.id, now)).toBe(true);
      const open = await invitations.listOpen(P1, now);
      expect(open.map((i) => i.id)).toEqual([newer.id, older.id]);
      expect(open[0]).toBeInstanceOf(Invitation);
      expect(await invitations.countOpen(P1, now)).toBe(2);
      expect(await invitations.countOpen(P2, now)).toBe(1);
      // At its expiry an invitation is no longer open.
      expect(await invitations.countOpen(P1, older.expiresAt)).toBe(1);
      expect(await invitations.listOpen('not-a-project-id', now)).toEqual([]);
    });

    it('tells whether an e-mail has an open invitation, a project’s or an operator’s', async () => {
      const invitations = await given();
      const project = invitation({ email: 'ana@example.com' });
      const operator = invitation({ projectId: null, email: 'bo@example.com' });
      await invitations.add(project);
      await invitations.add(operator);
      const now = at(30);
      expect(await invitations.hasOpenFor('ana@example.com', now)).toBe(true);
      expect(await invitations.hasOpenFor('bo@example.com', now)).toBe(true);
      expect(await invitations.hasOpenFor('cy@example.com', now)).toBe(false);
      expect(await invitations.hasOpenFor('ana@example.com', now, true)).toBe(false);
      expect(await invitations.hasOpenFor('bo@example.com', now, true)).toBe(true);
      expect(await invitations.hasOpenFor('bo@example.com', operator.expiresAt)).toBe(false);
      await invitations.accept(project.id, ACCEPTER, now);
      expect(await invitations.hasOpenFor('ana@example.com', now)).toBe(false);
      await invitations.revoke(null, operator.id, now);
      expect(await invitations.hasOpenFor('bo@example.com', now)).toBe(false);
    });

    it('accepts an open invitation once, and records by whom', async () => {
      const invitations = await given();
      const open = invitation();
      await invitations.add(open);
      const now = at(60);
      expect(await invitations.accept(open.id, ACCEPTER, now)).toBe(true);
      expect(await invitations.accept(open.id, INVITER, at(61))).toBe(false);
      const stored = await invitations.findByDigest(open.digest);
      expect(stored).toMatchObject({ acceptedBy: ACCEPTER, revokedAt: null });
      expect(stored?.acceptedAt?.toISOString()).toBe(now.toISOString());
      expect(stored?.isOpenAt(now)).toBe(false);
      expect(await invitations.accept('0190d100-0000-7000-8000-00000000ffff', ACCEPTER, now)).toBe(false);
      expect(await invitations.accept('not-an-id', ACCEPTER, now)).toBe(false);
    });

    it('accepts no expired or revoked invitation', async () => {
      const invitations = await given();
      const expiring = invitation({ ttlMs: 60_000 });
      const revoked = invitation();
      await invitations.add(expiring);
      await invitations.add(revoked);
      expect(await invitations.accept(expiring.id, ACCEPTER, expiring.expiresAt)).toBe(false);
      expect(await invitations.revoke(P1, revoked.id, at(50))).toBe(true);
      expect(await invitations.accept(revoked.id, ACCEPTER, at(51))).toBe(false);
      expect((await invitations.findByDigest(expiring.digest))?.acceptedAt).toBeNull();
      expect((await invitations.findByDigest(revoked.digest))?.acceptedAt).toBeNull();
    });

    it('lets exactly one of concurrent accepts win', async () => {
      const invitations = await given();
      const open = invitation();
      await invitations.add(open);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => invitations.accept(open.id, ACCEPTER, at(70))),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it('revokes an open invitation of the project it names only', async () => {
      const invitations = await given();
      const mine = invitation();
      const operator = invitation({ projectId: null });
      await invitations.add(mine);
      await invitations.add(operator);
      const now = at(80);
      expect(await invitations.revoke(P2, mine.id, now)).toBe(false);
      expect(await invitations.revoke(null, mine.id, now)).toBe(false);
      expect(await invitations.revoke(P1, operator.id, now)).toBe(false);
      expect(await invitations.revoke(P1, mine.id, now)).toBe(true);
      expect(await invitations.revoke(P1, mine.id, at(81))).toBe(false);
      expect((await invitations.findByDigest(mine.digest))?.revokedAt?.toISOString()).toBe(now.toISOString());
      expect(await invitations.revoke(null, operator.id, now)).toBe(true);
      const accepted = invitation();
      await invitations.add(accepted);
      await invitations.accept(accepted.id, ACCEPTER, now);
      expect(await invitations.revoke(P1, accepted.id, now)).toBe(false);
      expect(await invitations.revoke(P1, 'not-an-id', now)).toBe(false);
    });
  });
}

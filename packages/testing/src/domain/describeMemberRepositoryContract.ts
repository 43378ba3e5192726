import type { MemberRepository, ProjectRepository, UserRepository } from '@browserdeck/domain';
import { DomainError, Project, User } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh, empty store: members, and the projects and users they join. */
export interface MemberRepositoryFixture {
  members: MemberRepository;
  projects: ProjectRepository;
  users: UserRepository;
}

const OWNER = '0190c100-0000-7000-8000-0000000000f1';
const ADA = '0190c100-0000-7000-8000-0000000000a1';
const BEN = '0190c100-0000-7000-8000-0000000000b1';
const CY = '0190c100-0000-7000-8000-0000000000c1';
const P1 = '0190c100-0000-7000-8000-000000000001';
const P2 = '0190c100-0000-7000-8000-000000000002';

/**
 * Behaviour every `MemberRepository` must have (SPEC §17): the owner first, then oldest first, with
 * each member's e-mail; one add per member however many race; the owner changes only by `transfer`.
 */
export function describeMemberRepositoryContract(
  name: string,
  options: { create: () => Promise<MemberRepositoryFixture> },
): void {
  describe(`MemberRepository contract: ${name}`, () => {
    const base = Date.parse('2026-05-01T09:00:00.000Z');
    const at = (minute: number) => new Date(base + minute * 60_000 + 7);

    async function given(): Promise<MemberRepositoryFixture> {
      const fixture = await options.create();
      for (const [id, email] of [
        [OWNER, 'owner@example.com'],
        [ADA, "ada.o'neil@exämple.com"],
        [BEN, 'ben@example.com'],
        [CY, 'cy@example.com'],
      ] as const) {
        await fixture.users.ensure(User.create({ id, email, createdAt: new Date(base) }));
      }
      for (const [id, slug] of [
        [P1, 'one'],
        [P2, 'two'],
      ] as const) {
        await fixture.projects.add(Project.create({ id, ownerId: OWNER, name: slug, slug, now: at(0) }));
      }
      return fixture;
    }
    const rolesOf = async (members: MemberRepository, projectId: string) =>
      (await members.list(projectId)).map((m) => [m.userId, m.role]);

    it('lists the owner first, then the others oldest first, with their e-mails', async () => {
      const { members } = await given();
      expect(await members.add({ projectId: P1, userId: BEN, role: 'viewer', now: at(2) })).toBe('added');
      expect(await members.add({ projectId: P1, userId: ADA, role: 'admin', now: at(1) })).toBe('added');
      await members.add({ projectId: P2, userId: CY, role: 'developer', now: at(3) });
      const listed = await members.list(P1);
      expect(listed.map((m) => [m.userId, m.email, m.role])).toEqual([
        [OWNER, 'owner@example.com', 'owner'],
        [ADA, "ada.o'neil@exämple.com", 'admin'],
        [BEN, 'ben@example.com', 'viewer'],
      ]);
      expect(listed[1]).toEqual({
        projectId: P1,
        userId: ADA,
        email: "ada.o'neil@exämple.com",
        role: 'admin',
        createdAt: at(1),
        updatedAt: at(1),
      });
      expect(await members.count(P1)).toBe(3);
      expect(await members.count(P2)).toBe(2);
      expect(await members.count('0190c100-0000-7000-8000-00000000ffff')).toBe(0);
      expect(await members.list('not-a-project-id')).toEqual([]);
    });

    it('finds one member, and no one else', async () => {
      const { members } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'developer', now: at(1) });
      expect(await members.find(P1, ADA)).toMatchObject({ projectId: P1, userId: ADA, role: 'developer' });
      expect(await members.find(P1, OWNER)).toMatchObject({ role: 'owner', email: 'owner@example.com' });
      expect(await members.find(P2, ADA)).toBeNull();
      expect(await members.find(P1, BEN)).toBeNull();
      expect(await members.find(P1, 'not-a-user-id')).toBeNull();
    });

    it('adds a member once: a second add changes nothing, however many race', async () => {
      const { members } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'viewer', now: at(1) });
      expect(await members.add({ projectId: P1, userId: ADA, role: 'admin', now: at(2) })).toBe('exists');
      expect(await members.add({ projectId: P1, userId: OWNER, role: 'viewer', now: at(2) })).toBe('exists');
      expect(await rolesOf(members, P1)).toEqual([
        [OWNER, 'owner'],
        [ADA, 'viewer'],
      ]);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () =>
          members.add({ projectId: P2, userId: BEN, role: 'developer', now: at(3) }),
        ),
      );
      expect(outcomes.filter((o) => o === 'added')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'exists')).toHaveLength(9);
      expect(await members.count(P2)).toBe(2);
    });

    it('changes a member’s role, never the owner’s', async () => {
      const { members } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'viewer', now: at(1) });
      expect(await members.setRole(P1, ADA, 'admin', at(5))).toBe(true);
      expect(await members.find(P1, ADA)).toMatchObject({
        role: 'admin',
        createdAt: at(1),
        updatedAt: at(5),
      });
      expect(await members.setRole(P1, OWNER, 'viewer', at(5))).toBe(false);
      expect((await members.find(P1, OWNER))?.role).toBe('owner');
      expect(await members.setRole(P1, BEN, 'viewer', at(5))).toBe(false);
      expect(await members.setRole(P2, ADA, 'viewer', at(5))).toBe(false);
      expect(await members.find(P2, ADA)).toBeNull();
    });

    it('removes a member, never the owner', async () => {
      const { members } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'developer', now: at(1) });
      await members.add({ projectId: P2, userId: ADA, role: 'developer', now: at(1) });
      expect(await members.remove(P1, ADA)).toBe(true);
      expect(await members.find(P1, ADA)).toBeNull();
      expect(await members.find(P2, ADA)).not.toBeNull();
      expect(await members.remove(P1, ADA)).toBe(false);
      expect(await members.remove(P1, OWNER)).toBe(false);
      expect(await members.count(P1)).toBe(1);
    });

    it('transfers the project to a member: the old owner becomes an admin', async () => {
      const { members, projects } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'viewer', now: at(1) });
      expect(await members.transfer(P1, OWNER, ADA, at(9))).toBe(true);
      expect(await rolesOf(members, P1)).toEqual([
        [ADA, 'owner'],
        [OWNER, 'admin'],
      ]);
      expect((await members.find(P1, ADA))?.updatedAt).toEqual(at(9));
      expect((await projects.findAccess(P1, ADA))?.project.ownerId).toBe(ADA);
      expect(await projects.listOwnedIds(ADA)).toEqual([P1]);
      expect(await projects.listOwnedIds(OWNER)).toEqual([P2]);
      // Only the owner may transfer, and the other project is untouched.
      expect(await members.transfer(P1, OWNER, ADA, at(10))).toBe(false);
      expect((await members.find(P2, OWNER))?.role).toBe('owner');
    });

    it('transfers nothing unless the giver owns the project and the taker is a member', async () => {
      const { members, projects } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'admin', now: at(1) });
      expect(await members.transfer(P1, ADA, OWNER, at(2))).toBe(false);
      expect(await members.transfer(P1, OWNER, BEN, at(2))).toBe(false);
      expect(await members.transfer(P1, OWNER, OWNER, at(2))).toBe(false);
      expect(await members.transfer(P2, OWNER, ADA, at(2))).toBe(false);
      expect(await members.transfer('0190c100-0000-7000-8000-00000000ffff', OWNER, ADA, at(2))).toBe(false);
      expect(await rolesOf(members, P1)).toEqual([
        [OWNER, 'owner'],
        [ADA, 'admin'],
      ]);
      expect((await projects.findAccess(P1, null))?.project.ownerId).toBe(OWNER);
    });

    it('refuses a transfer to a member who owns a project with the same slug, changing nothing', async () => {
      const { members, projects } = await given();
      await projects.add(
        Project.create({
          id: '0190c100-0000-7000-8000-000000000003',
          ownerId: ADA,
          name: 'Mine',
          slug: 'one',
          now: at(1),
        }),
      );
      await members.add({ projectId: P1, userId: ADA, role: 'admin', now: at(1) });
      const refused = await members.transfer(P1, OWNER, ADA, at(2)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).code).toBe('slug_taken');
      expect(await rolesOf(members, P1)).toEqual([
        [OWNER, 'owner'],
        [ADA, 'admin'],
      ]);
      expect((await projects.findAccess(P1, null))?.project.ownerId).toBe(OWNER);
    });

    it('lets one of two concurrent transfers of a project win', async () => {
      const { members, projects } = await given();
      await members.add({ projectId: P1, userId: ADA, role: 'admin', now: at(1) });
      await members.add({ projectId: P1, userId: BEN, role: 'admin', now: at(1) });
      const outcomes = await Promise.all([
        members.transfer(P1, OWNER, ADA, at(2)),
        members.transfer(P1, OWNER, BEN, at(2)),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const owners = (await members.list(P1)).filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
      expect((await projects.findAccess(P1, null))?.project.ownerId).toBe(owners[0]?.userId);
    });
  });
}

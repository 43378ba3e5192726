import type { MemberRepository, ProjectRepository, UserRepository } from '@browserdeck/domain';
import { DomainError, Project, User } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { AWKWARD_NAME } from './awkwardText.ts';

/** A fresh, empty store: projects, users to own them, and the members beside them. */
export interface ProjectRepositoryFixture {
  projects: ProjectRepository;
  users: UserRepository;
  members: MemberRepository;
}

const ALICE = '0190b000-0000-7000-8000-00000000000a';
const BOB = '0190b000-0000-7000-8000-00000000000b';
const CAROL = '0190b000-0000-7000-8000-00000000000c';

/** Behaviour every `ProjectRepository` must have (with its members, SPEC §17). */
export function describeProjectRepositoryContract(
  name: string,
  options: { create: () => Promise<ProjectRepositoryFixture> },
): void {
  describe(`ProjectRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-02-01T10:00:00.000Z');
    function project(ownerId: string, slug: string, minute = seq): Project {
      seq++;
      return Project.create({
        id: `0190b000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        ownerId,
        name: `Project ${slug}`,
        slug,
        now: new Date(base + minute * 60_000 + 123),
      });
    }
    async function setUp(): Promise<ProjectRepositoryFixture> {
      const fixture = await options.create();
      for (const id of [ALICE, BOB, CAROL]) {
        await fixture.users.ensure(
          User.create({ id, email: `${id}@example.com`, createdAt: new Date(base) }),
        );
      }
      return fixture;
    }
    async function slugTakenOf(promise: Promise<unknown>): Promise<string | undefined> {
      try {
        await promise;
        return undefined;
      } catch (error) {
        return error instanceof DomainError ? error.code : String(error);
      }
    }
    const slugsOf = async (projects: ProjectRepository, userId: string, archived = false) =>
      (await projects.listForMember(userId, { archived })).map((g) => g.project.slug);

    it('stores a project and finds it with the role each user holds', async () => {
      const { projects } = await setUp();
      const p = project(ALICE, 'alpha');
      await projects.add(p);
      const access = await projects.findAccess(p.id, ALICE);
      expect(access?.project).toBeInstanceOf(Project);
      expect(access?.project).toMatchObject({
        id: p.id,
        ownerId: ALICE,
        name: 'Project alpha',
        slug: 'alpha',
        archived: false,
      });
      expect(access?.project.createdAt.toISOString()).toBe(p.createdAt.toISOString());
      expect(access).toMatchObject({ role: 'owner', ownerDisabled: false });
      expect(await projects.findAccess(p.id, BOB)).toMatchObject({ project: { id: p.id }, role: null });
      expect(await projects.findAccess(p.id, null)).toMatchObject({ project: { id: p.id }, role: null });
      expect(await projects.findAccess(p.id, 'not-a-user-id')).toMatchObject({ role: null });
      expect(await projects.findAccess('0190b000-0000-7000-8000-0000000fffff', ALICE)).toBeNull();
      expect(await projects.findAccess('not-a-project-id', ALICE)).toBeNull();
    });

    it('stores the owner as the project’s one member, with the project', async () => {
      const { projects, members } = await setUp();
      const p = project(ALICE, 'members');
      await projects.add(p);
      expect(await members.count(p.id)).toBe(1);
      expect(await members.find(p.id, ALICE)).toMatchObject({
        projectId: p.id,
        userId: ALICE,
        email: `${ALICE}@example.com`,
        role: 'owner',
      });
    });

    it('answers the role of every member, and nothing of other projects', async () => {
      const { projects, members } = await setUp();
      const p = project(ALICE, 'shared');
      const other = project(ALICE, 'other');
      await projects.add(p);
      await projects.add(other);
      const now = new Date(base + 60 * 60_000);
      await members.add({ projectId: p.id, userId: BOB, role: 'developer', now });
      await members.add({ projectId: p.id, userId: CAROL, role: 'viewer', now });
      expect((await projects.findAccess(p.id, BOB))?.role).toBe('developer');
      expect((await projects.findAccess(p.id, CAROL))?.role).toBe('viewer');
      expect((await projects.findAccess(other.id, BOB))?.role).toBeNull();
      await members.setRole(p.id, BOB, 'admin', now);
      expect((await projects.findAccess(p.id, BOB))?.role).toBe('admin');
    });

    it('says when the owner’s account is disabled, whoever asks', async () => {
      const { projects, members, users } = await setUp();
      const p = project(ALICE, 'closed');
      await projects.add(p);
      await members.add({ projectId: p.id, userId: BOB, role: 'admin', now: new Date(base) });
      expect(await users.setDisabled(ALICE, new Date(base + 1_000))).toBe(true);
      expect(await projects.findAccess(p.id, BOB)).toMatchObject({ role: 'admin', ownerDisabled: true });
      expect(await projects.findAccess(p.id, null)).toMatchObject({ role: null, ownerDisabled: true });
      // A disabled member is not the owner: the project stays open.
      const bobs = project(BOB, 'bobs');
      await projects.add(bobs);
      await members.add({ projectId: bobs.id, userId: ALICE, role: 'developer', now: new Date(base) });
      expect(await projects.findAccess(bobs.id, ALICE)).toMatchObject({
        role: 'developer',
        ownerDisabled: false,
      });
      await users.setDisabled(ALICE, null);
      expect((await projects.findAccess(p.id, BOB))?.ownerDisabled).toBe(false);
    });

    it('lists the projects a user is a member of, newest first, with the role, by archived flag', async () => {
      const { projects, members } = await setUp();
      const [a, b, c] = [project(ALICE, 'a', 1), project(ALICE, 'b', 2), project(ALICE, 'c', 3)];
      for (const p of [a, b, c]) await projects.add(p);
      const bobs = project(BOB, 'bob', 4);
      await projects.add(bobs);
      await members.add({ projectId: bobs.id, userId: ALICE, role: 'viewer', now: new Date(base) });
      b.archive(new Date(base + 10 * 60_000));
      await projects.update(b);
      const grants = await projects.listForMember(ALICE, { archived: false });
      expect(grants.map((g) => [g.project.slug, g.role])).toEqual([
        ['bob', 'viewer'],
        ['c', 'owner'],
        ['a', 'owner'],
      ]);
      expect(grants[0]?.project).toBeInstanceOf(Project);
      expect(grants[0]?.project.ownerId).toBe(BOB);
      expect(await slugsOf(projects, ALICE, true)).toEqual(['b']);
      expect(await slugsOf(projects, BOB)).toEqual(['bob']);
      expect(await slugsOf(projects, CAROL)).toEqual([]);
      expect(await slugsOf(projects, 'not-a-user-id')).toEqual([]);
    });

    it('lists the ids of the projects a user owns, archived ones included', async () => {
      const { projects, members } = await setUp();
      const [a, b] = [project(ALICE, 'a', 1), project(ALICE, 'b', 2)];
      for (const p of [a, b]) await projects.add(p);
      const bobs = project(BOB, 'bob', 3);
      await projects.add(bobs);
      await members.add({ projectId: bobs.id, userId: ALICE, role: 'admin', now: new Date(base) });
      b.archive(new Date(base + 10 * 60_000));
      await projects.update(b);
      expect(new Set(await projects.listOwnedIds(ALICE))).toEqual(new Set([a.id, b.id]));
      expect(await projects.listOwnedIds(CAROL)).toEqual([]);
      expect(await projects.listOwnedIds('not-a-user-id')).toEqual([]);
    });

    it('refuses a second project with the same slug for one owner, archived or not', async () => {
      const { projects } = await setUp();
      const first = project(ALICE, 'same');
      await projects.add(first);
      first.archive(new Date());
      await projects.update(first);
      expect(await slugTakenOf(projects.add(project(ALICE, 'same')))).toBe('slug_taken');
      await projects.add(project(BOB, 'same'));
      expect(await slugsOf(projects, BOB)).toEqual(['same']);
    });

    it('lets exactly one of 20 concurrent adds of one slug win, with one owner member', async () => {
      const { projects, members } = await setUp();
      const candidates = Array.from({ length: 20 }, () => project(ALICE, 'race'));
      const outcomes = await Promise.all(candidates.map((p) => slugTakenOf(projects.add(p))));
      expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'slug_taken')).toHaveLength(19);
      const grants = await projects.listForMember(ALICE, { archived: false });
      expect(grants).toHaveLength(1);
      for (const p of candidates) {
        expect(await members.count(p.id)).toBe(p.id === grants[0]?.project.id ? 1 : 0);
      }
    });

    it("counts the owner's projects, archived ones included", async () => {
      const { projects } = await setUp();
      expect(await projects.countOwned(ALICE)).toBe(0);
      const [a, b] = [project(ALICE, 'a', 1), project(ALICE, 'b', 2)];
      for (const p of [a, b]) await projects.add(p);
      await projects.add(project(BOB, 'bob', 3));
      b.archive(new Date(base + 10 * 60_000));
      await projects.update(b);
      expect(await projects.countOwned(ALICE)).toBe(2);
      expect(await projects.countOwned(BOB)).toBe(1);
      expect(await projects.countOwned('not-a-user-id')).toBe(0);
    });

    it('stores renames and archive state', async () => {
      const { projects } = await setUp();
      const p = project(ALICE, 'keep-slug');
      await projects.add(p);
      const later = new Date(base + 3_600_000);
      p.rename('  Renamed  ', later);
      p.archive(later);
      await projects.update(p);
      const found = (await projects.findAccess(p.id, ALICE))?.project;
      expect(found).toMatchObject({ name: 'Renamed', slug: 'keep-slug', archived: true });
      expect(found?.updatedAt.toISOString()).toBe(later.toISOString());
    });

    it('stores names with quotes, placeholders and other awkward characters exactly', async () => {
      const { projects } = await setUp();
      const p = Project.create({
        id: '0190b000-0000-7000-8000-0000000a0001',
        ownerId: ALICE,
        name: AWKWARD_NAME,
        slug: 'awkward',
        now: new Date(base),
      });
      await projects.add(p);
      expect((await projects.findAccess(p.id, ALICE))?.project.name).toBe(AWKWARD_NAME);
      expect((await projects.listForMember(ALICE, { archived: false })).map((g) => g.project.name)).toEqual([
        AWKWARD_NAME,
      ]);
      const renamed = `${AWKWARD_NAME.slice(0, 90)} ''\\?`;
      p.rename(renamed, new Date(base + 60_000));
      await projects.update(p);
      expect((await projects.findAccess(p.id, null))?.project.name).toBe(renamed);
    });

    it('finds the oldest project, archived ones included', async () => {
      const { projects } = await setUp();
      expect(await projects.findOldestOwned(ALICE)).toBeNull();
      const oldest = project(ALICE, 'old', 1);
      await projects.add(oldest);
      await projects.add(project(ALICE, 'new', 5));
      oldest.archive(new Date(base + 9 * 60_000));
      await projects.update(oldest);
      expect((await projects.findOldestOwned(ALICE))?.id).toBe(oldest.id);
      expect(await projects.findOldestOwned(BOB)).toBeNull();
    });

    it("deletes the owner's project only, its members with it", async () => {
      const { projects, members } = await setUp();
      const p = project(ALICE, 'gone');
      await projects.add(p);
      await members.add({ projectId: p.id, userId: BOB, role: 'admin', now: new Date(base) });
      expect(await projects.delete(BOB, p.id)).toBe(false);
      expect(await projects.findAccess(p.id, ALICE)).not.toBeNull();
      expect(await projects.delete(ALICE, p.id)).toBe(true);
      expect(await projects.findAccess(p.id, ALICE)).toBeNull();
      expect(await slugsOf(projects, BOB)).toEqual([]);
      expect(await members.count(p.id)).toBe(0);
      expect(await projects.delete(ALICE, p.id)).toBe(false);
    });
  });
}

import type { ProjectRepository, UserRepository } from '@browserdeck/domain';
import { DomainError, Project, User } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { AWKWARD_NAME } from './awkwardText.ts';

/** A fresh, empty store: projects, and users to own them. */
export interface ProjectRepositoryFixture {
  projects: ProjectRepository;
  users: UserRepository;
}

const ALICE = '0190b000-0000-7000-8000-00000000000a';
const BOB = '0190b000-0000-7000-8000-00000000000b';

/** Behaviour every `ProjectRepository` must have. */
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
      for (const id of [ALICE, BOB]) {
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

    it('stores a project and finds it for its owner only', async () => {
      const { projects } = await setUp();
      const p = project(ALICE, 'alpha');
      await projects.add(p);
      const found = await projects.findOwned(ALICE, p.id);
      expect(found).toBeInstanceOf(Project);
      expect(found).toMatchObject({
        id: p.id,
        ownerId: ALICE,
        name: 'Project alpha',
        slug: 'alpha',
        archived: false,
      });
      expect(found?.createdAt.toISOString()).toBe(p.createdAt.toISOString());
      expect(await projects.findOwned(BOB, p.id)).toBeNull();
      expect(await projects.findOwned(ALICE, '0190b000-0000-7000-8000-0000000fffff')).toBeNull();
    });

    it('refuses a second project with the same slug for one owner, archived or not', async () => {
      const { projects } = await setUp();
      const first = project(ALICE, 'same');
      await projects.add(first);
      first.archive(new Date());
      await projects.update(first);
      expect(await slugTakenOf(projects.add(project(ALICE, 'same')))).toBe('slug_taken');
      await projects.add(project(BOB, 'same'));
      expect(await projects.listOwned(BOB, { archived: false })).toHaveLength(1);
    });

    it('lets exactly one of 20 concurrent adds of one slug win', async () => {
      const { projects } = await setUp();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => slugTakenOf(projects.add(project(ALICE, 'race')))),
      );
      expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'slug_taken')).toHaveLength(19);
      expect(await projects.listOwned(ALICE, { archived: false })).toHaveLength(1);
    });

    it('lists by archived flag, newest first', async () => {
      const { projects } = await setUp();
      const [a, b, c] = [project(ALICE, 'a', 1), project(ALICE, 'b', 2), project(ALICE, 'c', 3)];
      for (const p of [a, b, c]) await projects.add(p);
      await projects.add(project(BOB, 'bob', 4));
      b.archive(new Date(base + 10 * 60_000));
      await projects.update(b);
      expect((await projects.listOwned(ALICE, { archived: false })).map((p) => p.slug)).toEqual(['c', 'a']);
      expect((await projects.listOwned(ALICE, { archived: true })).map((p) => p.slug)).toEqual(['b']);
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
      const found = await projects.findOwned(ALICE, p.id);
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
      expect((await projects.findOwned(ALICE, p.id))?.name).toBe(AWKWARD_NAME);
      expect((await projects.listOwned(ALICE, { archived: false })).map((x) => x.name)).toEqual([
        AWKWARD_NAME,
      ]);
      const renamed = `${AWKWARD_NAME.slice(0, 90)} ''\\?`;
      p.rename(renamed, new Date(base + 60_000));
      await projects.update(p);
      expect((await projects.findOwned(ALICE, p.id))?.name).toBe(renamed);
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

    it("deletes the owner's project only", async () => {
      const { projects } = await setUp();
      const p = project(ALICE, 'gone');
      await projects.add(p);
      expect(await projects.delete(BOB, p.id)).toBe(false);
      expect(await projects.findOwned(ALICE, p.id)).not.toBeNull();
      expect(await projects.delete(ALICE, p.id)).toBe(true);
      expect(await projects.findOwned(ALICE, p.id)).toBeNull();
      expect(await projects.delete(ALICE, p.id)).toBe(false);
    });
  });
}

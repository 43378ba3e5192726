import {
  aProject,
  aUser,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  InMemoryUserRepository,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { ListProjects } from './ListProjects.ts';

const OWNER = 'owner-1';
const at = (minute: number) => new Date(Date.parse('2026-03-01T12:00:00.000Z') + minute * 60_000);

async function setUp() {
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository({ users });
  const members = new InMemoryMemberRepository({ projects });
  for (const id of [OWNER, 'owner-2']) await users.ensure(aUser({ id, createdAt: at(0) }));
  const first = aProject({ ownerId: OWNER, slug: 'first', now: at(1) });
  const second = aProject({ ownerId: OWNER, slug: 'second', now: at(2) });
  const old = aProject({ ownerId: OWNER, slug: 'old', now: at(3), archived: true });
  const theirs = aProject({ ownerId: 'owner-2', slug: 'theirs', now: at(4) });
  for (const p of [first, second, old, theirs]) await projects.add(p);
  const listProjects = new ListProjects({ projects });
  const list = (caller: Caller, archived?: boolean) => listProjects.execute({ caller, archived });
  const slugs = async (caller: Caller, archived?: boolean) =>
    (await list(caller, archived)).map((g) => g.project.slug);
  const keyOf = (projectId: string, role: 'developer' | 'viewer' = 'developer'): Caller => ({
    kind: 'apiKey',
    keyId: 'k',
    keyName: 'CI',
    role,
    projectId,
  });
  return { users, members, first, second, old, theirs, list, slugs, keyOf };
}

describe('ListProjects', () => {
  it('lists the user’s active projects, newest first, and none of another owner', async () => {
    const { slugs } = await setUp();
    expect(await slugs(asUser(OWNER))).toEqual(['second', 'first']);
    expect(await slugs(asUser('owner-3'))).toEqual([]);
  });

  it('lists the archived ones when asked', async () => {
    const { slugs } = await setUp();
    expect(await slugs(asUser(OWNER), true)).toEqual(['old']);
  });

  it('shows an API key its own project only, and only in the list its archived state puts it in', async () => {
    const { slugs, keyOf, first, old } = await setUp();
    expect(await slugs(keyOf(first.id))).toEqual(['first']);
    expect(await slugs(keyOf(first.id), true)).toEqual([]);
    expect(await slugs(keyOf(old.id))).toEqual([]);
    expect(await slugs(keyOf(old.id), true)).toEqual(['old']);
  });

  it('answers each project with the caller’s role, and a key’s with the key’s role', async () => {
    const { list, keyOf, first } = await setUp();
    expect((await list(asUser(OWNER))).map((g) => g.role)).toEqual(['owner', 'owner']);
    expect((await list(keyOf(first.id, 'viewer'))).map((g) => g.role)).toEqual(['viewer']);
  });

  it('lists the projects the user is a member of, with their role, beside their own', async () => {
    const { list, members, theirs } = await setUp();
    await members.add({ projectId: theirs.id, userId: OWNER, role: 'viewer', now: at(5) });
    expect((await list(asUser(OWNER))).map((g) => [g.project.slug, g.role])).toEqual([
      ['theirs', 'viewer'],
      ['second', 'owner'],
      ['first', 'owner'],
    ]);
  });

  it('shows a key nothing when its project’s owner is disabled', async () => {
    const { slugs, keyOf, users, theirs } = await setUp();
    expect(await slugs(keyOf(theirs.id))).toEqual(['theirs']);
    await users.setDisabled('owner-2', at(5));
    expect(await slugs(keyOf(theirs.id))).toEqual([]);
  });
});

import { aProject, InMemoryProjectRepository } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { ListProjects } from './ListProjects.ts';

const OWNER = 'owner-1';
const at = (minute: number) => new Date(Date.parse('2026-03-01T12:00:00.000Z') + minute * 60_000);

async function setUp() {
  const projects = new InMemoryProjectRepository();
  const first = aProject({ ownerId: OWNER, slug: 'first', now: at(1) });
  const second = aProject({ ownerId: OWNER, slug: 'second', now: at(2) });
  const old = aProject({ ownerId: OWNER, slug: 'old', now: at(3), archived: true });
  const theirs = aProject({ ownerId: 'owner-2', slug: 'theirs', now: at(4) });
  for (const p of [first, second, old, theirs]) await projects.add(p);
  const listProjects = new ListProjects({ projects });
  const slugs = async (caller: Caller, archived?: boolean) =>
    (await listProjects.execute({ caller, archived })).map((p) => p.slug);
  const keyOf = (projectId: string, ownerId = OWNER): Caller => ({
    kind: 'apiKey',
    keyId: 'k',
    projectId,
    ownerId,
  });
  return { first, old, theirs, slugs, keyOf };
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

  it('shows a key nothing when its project is not its owner’s', async () => {
    const { slugs, keyOf, theirs } = await setUp();
    expect(await slugs(keyOf(theirs.id))).toEqual([]);
  });
});

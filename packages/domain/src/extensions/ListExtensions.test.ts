import {
  anExtension,
  aProject,
  InMemoryExtensionRepository,
  InMemoryProjectRepository,
  ManualClock,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { ListExtensions } from './ListExtensions.ts';

const OWNER = 'owner-1';
const ZIP = Uint8Array.from([1, 2, 3]);

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const extensions = new InMemoryExtensionRepository();
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: OWNER });
  for (const p of [project, other]) await projects.add(p);
  const older = anExtension({ projectId: project.id, now: clock.now() });
  const newer = anExtension({ projectId: project.id, now: new Date(clock.now().getTime() + 1000) });
  const foreign = anExtension({ projectId: other.id, now: clock.now() });
  for (const e of [older, newer, foreign]) await extensions.add(e, ZIP);
  const list = (caller: Caller = asUser(OWNER)) =>
    new ListExtensions({ projects, extensions }).execute({ caller, projectId: project.id });
  return { project, older, newer, list };
}

describe('ListExtensions', () => {
  it('lists the project’s extensions newest first, no other project’s', async () => {
    const { list, older, newer } = await setUp();
    expect((await list()).map((e) => e.id)).toEqual([newer.id, older.id]);
  });

  it('answers a project API key of the project, and not_found to another owner', async () => {
    const { list, project } = await setUp();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    await expect(list(key)).resolves.toHaveLength(2);
    await expect(list(asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });
});

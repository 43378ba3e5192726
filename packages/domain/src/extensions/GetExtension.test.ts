import {
  anExtension,
  aProject,
  InMemoryExtensionRepository,
  InMemoryProjectRepository,
  ManualClock,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { GetExtension } from './GetExtension.ts';

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
  const get = (extensionId: string, caller: Caller = asUser(OWNER)) =>
    new GetExtension({ projects, extensions }).execute({ caller, projectId: project.id, extensionId });
  return { clock, projects, project, older, newer, foreign, get };
}

describe('GetExtension', () => {
  it('answers one extension of the project', async () => {
    const { get, older } = await setUp();
    expect({ ...(await get(older.id)) }).toEqual({ ...older });
  });

  it('answers not_found for another project’s extension, an unknown id and another owner', async () => {
    const { get, foreign, older } = await setUp();
    await expect(get(foreign.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(get('nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(get(older.id, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('still answers in an archived project', async () => {
    const { get, older, project, projects, clock } = await setUp();
    project.archive(clock.now());
    await projects.update(project);
    await expect(get(older.id)).resolves.toMatchObject({ id: older.id });
  });
});

import { aProject, InMemoryProjectRepository, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { ArchiveProject } from './ArchiveProject.ts';

const OWNER = 'owner-1';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const project = aProject({ ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  clock.advance(60_000);
  const archiveProject = new ArchiveProject({ projects, clock });
  const archive = (caller: Caller = asUser(OWNER)) =>
    archiveProject.execute({ caller, projectId: project.id });
  const stored = () => projects.findOwned(OWNER, project.id);
  return { clock, projects, project, archive, stored };
}

describe('ArchiveProject', () => {
  it('archives the project and stores it, updated now', async () => {
    const { archive, stored, projects } = await setUp();
    const archived = await archive();
    expect(archived).toMatchObject({ archived: true });
    expect(await stored()).toMatchObject({ archived: true });
    expect((await stored())?.updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
    expect(await projects.listOwned(OWNER, { archived: false })).toEqual([]);
    expect((await projects.listOwned(OWNER, { archived: true })).map((p) => p.id)).toEqual([archived.id]);
  });

  it('succeeds again on an archived project and changes nothing', async () => {
    const { archive, stored, clock } = await setUp();
    await archive();
    clock.advance(60_000);
    const again = await archive();
    expect(again.archived).toBe(true);
    expect((await stored())?.updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('answers not_found for another owner’s project and leaves it active', async () => {
    const { archive, stored } = await setUp();
    await expect(archive(asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    expect((await stored())?.archived).toBe(false);
  });

  it('refuses the project’s own API key with forbidden_for_api_key and leaves it active', async () => {
    const { archive, project, stored } = await setUp();
    await expect(
      archive({ kind: 'apiKey', keyId: 'k', projectId: project.id, ownerId: OWNER }),
    ).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect((await stored())?.archived).toBe(false);
  });
});

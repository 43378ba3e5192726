import { aProject, InMemoryProjectRepository, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { UpdateProject } from './UpdateProject.ts';

const OWNER = 'owner-1';

async function setUp(options: { archived?: boolean } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const project = aProject({ ownerId: OWNER, name: 'Main', slug: 'main', now: clock.now(), ...options });
  await projects.add(project);
  clock.advance(60_000);
  const updateProject = new UpdateProject({ projects, clock });
  const update = (changes: { name?: string; archived?: boolean }, caller: Caller = asUser(OWNER)) =>
    updateProject.execute({ caller, projectId: project.id, ...changes });
  const stored = async () => (await projects.findOwned(OWNER, project.id))!;
  return { project, update, stored };
}

describe('UpdateProject', () => {
  it('renames with the name trimmed, keeps the slug and stores it, updated now', async () => {
    const { update, stored } = await setUp();
    const renamed = await update({ name: '  Checkout  ' });
    expect(renamed).toMatchObject({ name: 'Checkout', slug: 'main', archived: false });
    expect(await stored()).toMatchObject({ name: 'Checkout', slug: 'main' });
    expect((await stored()).updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('archives with archived: true and restores with archived: false', async () => {
    const { update, stored } = await setUp();
    await update({ archived: true });
    expect((await stored()).archived).toBe(true);
    await update({ archived: false });
    expect((await stored()).archived).toBe(false);
  });

  it('renames and restores an archived project in one call', async () => {
    const { update, stored } = await setUp({ archived: true });
    await update({ name: 'Back', archived: false });
    expect(await stored()).toMatchObject({ name: 'Back', archived: false });
  });

  it('refuses a call with neither name nor archived with validation_failed', async () => {
    const { update, stored } = await setUp();
    await expect(update({})).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: '' })],
    });
    expect((await stored()).updatedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it.each([
    ['a blank name', '   '],
    ['a name over 100 characters', 'n'.repeat(101)],
    ['a control character in the name', 'Ma\u0000in'],
  ])('refuses %s with validation_failed on name and changes nothing', async (_, name) => {
    const { update, stored } = await setUp();
    await expect(update({ name, archived: true })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'name' })],
    });
    expect(await stored()).toMatchObject({ name: 'Main', archived: false });
  });

  it('answers not_found for another owner and refuses an API key with forbidden_for_api_key', async () => {
    const { update, project, stored } = await setUp();
    await expect(update({ name: 'Theirs' }, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    const key: Caller = { kind: 'apiKey', keyId: 'k', projectId: project.id, ownerId: OWNER };
    await expect(update({ name: 'Keyed' }, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect((await stored()).name).toBe('Main');
  });
});

import { FakeBrowserProvider, givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { GetContext } from './GetContext.ts';

describe('GetContext', () => {
  it('reads a context of the project, also when the project is archived', async () => {
    const { projects, provider, owner, project, clock } = await givenSessionWorld();
    const created = await provider.contexts!.create(project.id);
    project.archive(clock.now());
    await projects.update(project);
    const get = new GetContext({ projects, provider });
    expect(await get.execute({ caller: owner, projectId: project.id, contextId: created.id })).toEqual(
      created,
    );
  });

  it('answers not_found for an unknown id, another project’s context, or another owner', async () => {
    const { projects, provider, owner, project, addProject } = await givenSessionWorld();
    const other = await addProject('Other', 'other');
    const theirs = await provider.contexts!.create(other.id);
    const get = new GetContext({ projects, provider });
    for (const input of [
      { caller: owner, projectId: project.id, contextId: 'context-404' },
      { caller: owner, projectId: project.id, contextId: theirs.id },
      { caller: asUser('stranger'), projectId: other.id, contextId: theirs.id },
    ]) {
      await expect(get.execute(input)).rejects.toMatchObject({
        code: 'not_found',
        message: /Context|Project/,
      });
    }
  });

  it('answers unsupported_option when the provider has no contexts', async () => {
    const { projects, owner, project, clock } = await givenSessionWorld();
    const provider = new FakeBrowserProvider({ clock, contexts: false });
    await expect(
      new GetContext({ projects, provider }).execute({
        caller: owner,
        projectId: project.id,
        contextId: 'c',
      }),
    ).rejects.toMatchObject({ code: 'unsupported_option' });
  });
});

import { FakeBrowserProvider, givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateContext } from './CreateContext.ts';

describe('CreateContext', () => {
  it('makes a context in the caller’s project, at the provider', async () => {
    const { projects, provider, owner, project, clock } = await givenSessionWorld();
    const context = await new CreateContext({ projects, provider }).execute({
      caller: owner,
      projectId: project.id,
    });
    expect(context).toEqual({
      id: 'context-1',
      projectId: project.id,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    expect(await provider.contexts!.get(project.id, context.id)).toEqual(context);
  });

  it('lets an API key of the project create one, and refuses a key of another project', async () => {
    const { projects, provider, project, addProject } = await givenSessionWorld();
    const other = await addProject('Other', 'other');
    const create = new CreateContext({ projects, provider });
    const key = {
      kind: 'apiKey',
      keyId: 'k1',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    } as const;
    expect((await create.execute({ caller: key, projectId: project.id })).projectId).toBe(project.id);
    await expect(create.execute({ caller: key, projectId: other.id })).rejects.toMatchObject({
      code: 'forbidden_for_api_key',
    });
  });

  it('answers not_found for another owner’s project, project_archived for an archived one', async () => {
    const { projects, provider, owner, project, clock } = await givenSessionWorld();
    const create = new CreateContext({ projects, provider });
    await expect(create.execute({ caller: asUser('stranger'), projectId: project.id })).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    project.archive(clock.now());
    await projects.update(project);
    await expect(create.execute({ caller: owner, projectId: project.id })).rejects.toMatchObject({
      code: 'project_archived',
    });
  });

  it('answers unsupported_option, naming contexts, when the provider has none', async () => {
    const { projects, owner, project, clock } = await givenSessionWorld();
    const provider = new FakeBrowserProvider({ clock, name: 'plain', contexts: false });
    const error = await new CreateContext({ projects, provider })
      .execute({ caller: owner, projectId: project.id })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'unsupported_option',
      option: 'contexts',
      message: 'The plain browser provider does not support browser contexts.',
      errors: [{ path: 'contexts', message: expect.any(String) }],
    });
  });
});

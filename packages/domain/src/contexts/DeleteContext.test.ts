import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { DeleteContext } from './DeleteContext.ts';

describe('DeleteContext', () => {
  it('deletes a context of the project; a second delete is not_found', async () => {
    const { projects, provider, owner, project } = await givenSessionWorld();
    const created = await provider.contexts!.create(project.id);
    const remove = new DeleteContext({ projects, provider });
    await remove.execute({ caller: owner, projectId: project.id, contextId: created.id });
    expect(await provider.contexts!.get(project.id, created.id)).toBeNull();
    await expect(
      remove.execute({ caller: owner, projectId: project.id, contextId: created.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('leaves another project’s context alone (not_found)', async () => {
    const { projects, provider, owner, project, addProject } = await givenSessionWorld();
    const other = await addProject('Other', 'other');
    const theirs = await provider.contexts!.create(other.id);
    await expect(
      new DeleteContext({ projects, provider }).execute({
        caller: owner,
        projectId: project.id,
        contextId: theirs.id,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await provider.contexts!.get(other.id, theirs.id)).not.toBeNull();
  });

  it('refuses context_in_use while a running session saves to it; not for one that does not', async () => {
    const { projects, provider, owner, project, startSession } = await givenSessionWorld();
    const writer = await provider.contexts!.create(project.id);
    const reader = await provider.contexts!.create(project.id);
    const session = await startSession({ contextId: writer.id });
    await startSession({ contextId: reader.id, contextPersist: false });
    const remove = new DeleteContext({ projects, provider });
    await expect(
      remove.execute({ caller: owner, projectId: project.id, contextId: writer.id }),
    ).rejects.toMatchObject({ code: 'context_in_use' });
    expect(await provider.contexts!.get(project.id, writer.id)).not.toBeNull();
    await remove.execute({ caller: owner, projectId: project.id, contextId: reader.id });

    await provider.release(session.providerSessionId);
    await remove.execute({ caller: owner, projectId: project.id, contextId: writer.id });
    expect(await provider.contexts!.get(project.id, writer.id)).toBeNull();
  });
});

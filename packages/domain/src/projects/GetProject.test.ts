import { aProject, InMemoryProjectRepository } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { type ApiKeyCaller, asUser } from '../access/Caller.ts';
import { GetProject } from './GetProject.ts';

const OWNER = 'owner-1';

async function setUp() {
  const projects = new InMemoryProjectRepository();
  const project = aProject({ ownerId: OWNER, name: 'Main', slug: 'main' });
  const archived = aProject({ ownerId: OWNER, archived: true });
  for (const p of [project, archived]) await projects.add(p);
  const getProject = new GetProject({ projects });
  const keyOf = (projectId: string): ApiKeyCaller => ({
    kind: 'apiKey',
    keyId: 'k',
    keyName: 'CI',
    role: 'developer',
    projectId,
  });
  return { project, archived, getProject, keyOf };
}

describe('GetProject', () => {
  it('answers the owner’s project, archived ones too', async () => {
    const { getProject, project, archived } = await setUp();
    const found = await getProject.execute({ caller: asUser(OWNER), projectId: project.id });
    expect(found).toMatchObject({
      id: project.id,
      ownerId: OWNER,
      name: 'Main',
      slug: 'main',
      archived: false,
    });
    const old = await getProject.execute({ caller: asUser(OWNER), projectId: archived.id });
    expect(old).toMatchObject({ id: archived.id, archived: true });
  });

  it('answers not_found for another owner’s project and an unknown id', async () => {
    const { getProject, project } = await setUp();
    await expect(
      getProject.execute({ caller: asUser('owner-2'), projectId: project.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      getProject.execute({ caller: asUser(OWNER), projectId: '00000000-0000-7000-8000-0000000fffff' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lets a project’s API key read its own project and refuses it any other with forbidden_for_api_key', async () => {
    const { getProject, project, archived, keyOf } = await setUp();
    expect((await getProject.execute({ caller: keyOf(project.id), projectId: project.id })).id).toBe(
      project.id,
    );
    await expect(
      getProject.execute({ caller: keyOf(project.id), projectId: archived.id }),
    ).rejects.toMatchObject({
      code: 'forbidden_for_api_key',
    });
  });
});

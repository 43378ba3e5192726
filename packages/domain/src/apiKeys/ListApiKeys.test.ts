import {
  anApiKey,
  aProject,
  InMemoryApiKeyRepository,
  InMemoryProjectRepository,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { ListApiKeys } from './ListApiKeys.ts';

const OWNER = 'owner-1';
const at = (minute: number) => new Date(Date.parse('2026-03-01T12:00:00.000Z') + minute * 60_000);

async function setUp() {
  const projects = new InMemoryProjectRepository();
  const apiKeys = new InMemoryApiKeyRepository();
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: OWNER });
  for (const p of [project, other]) await projects.add(p);
  const ours = { projectId: project.id, ownerId: OWNER };
  const revoked = anApiKey({ ...ours, name: 'revoked', now: at(3) });
  revoked.revoke(at(4));
  for (const key of [
    anApiKey({ ...ours, name: 'older', now: at(1) }),
    anApiKey({ ...ours, name: 'newer', now: at(2) }),
    revoked,
    anApiKey({ projectId: other.id, ownerId: OWNER, name: 'elsewhere', now: at(5) }),
  ]) {
    await apiKeys.add(key);
  }
  const listApiKeys = new ListApiKeys({ projects, apiKeys });
  const names = async (caller: Caller = asUser(OWNER)) =>
    (await listApiKeys.execute({ caller, projectId: project.id })).map((k) => k.name);
  return { project, names };
}

describe('ListApiKeys', () => {
  it('lists the project’s keys that are not revoked, newest first', async () => {
    const { names } = await setUp();
    expect(await names()).toEqual(['newer', 'older']);
  });

  it('answers not_found to another owner', async () => {
    const { names } = await setUp();
    await expect(names(asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses the project’s own API key with forbidden_for_api_key', async () => {
    const { names, project } = await setUp();
    await expect(
      names({ kind: 'apiKey', keyId: 'k', keyName: 'CI', role: 'developer', projectId: project.id }),
    ).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });
});

import {
  aProject,
  aUser,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  InMemoryUserRepository,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { authorizeProject } from './authorizeProject.ts';
import { asSystem, asUser, type Caller } from './Caller.ts';
import {
  API_KEY_ROLES,
  type ApiKeyRole,
  PROJECT_ROLES,
  type ProjectRole,
  roleAtLeast,
} from './projectRoles.ts';
import { maskedUrl, maskedValues, seesSecrets } from './secretMasking.ts';

const OWNER = 'owner-1';
/** A member of the project for each role. */
const MEMBER_OF: Record<ProjectRole, string> = {
  owner: OWNER,
  admin: 'admin-1',
  developer: 'dev-1',
  viewer: 'viewer-1',
};

async function setUp() {
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository({ users });
  const members = new InMemoryMemberRepository({ projects });
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: 'owner-2' });
  for (const p of [project, other]) await projects.add(p);
  for (const id of [...Object.values(MEMBER_OF), 'owner-2']) await users.ensure(aUser({ id }));
  for (const role of ['admin', 'developer', 'viewer'] as const) {
    await members.add({ projectId: project.id, userId: MEMBER_OF[role], role, now: project.createdAt });
  }
  const authorize = (caller: Caller, least: ProjectRole, projectId = project.id) =>
    authorizeProject(projects, caller, projectId, least);
  const keyOf = (role: ApiKeyRole, projectId = project.id): Caller => ({
    kind: 'apiKey',
    keyId: 'k',
    keyName: 'CI',
    role,
    projectId,
  });
  return { users, projects, members, project, other, authorize, keyOf };
}

/** Every (role, least role) pair, and whether the role holds the least one. */
const MATRIX = PROJECT_ROLES.flatMap((role) =>
  PROJECT_ROLES.map(
    (least) => [role, least, PROJECT_ROLES.indexOf(role) >= PROJECT_ROLES.indexOf(least)] as const,
  ),
);

describe('roleAtLeast', () => {
  it('orders the roles viewer < developer < admin < owner, each holding the rights below it', () => {
    expect(PROJECT_ROLES).toEqual(['viewer', 'developer', 'admin', 'owner']);
    const held = (role: ProjectRole) => PROJECT_ROLES.filter((least) => roleAtLeast(role, least));
    expect(held('viewer')).toEqual(['viewer']);
    expect(held('developer')).toEqual(['viewer', 'developer']);
    expect(held('admin')).toEqual(['viewer', 'developer', 'admin']);
    expect(held('owner')).toEqual(['viewer', 'developer', 'admin', 'owner']);
  });
});

describe('authorizeProject', () => {
  it.each(MATRIX)('gives a member with role %s what needs %s: %s', async (role, least, allowed) => {
    const { authorize, project } = await setUp();
    const result = authorize(asUser(MEMBER_OF[role]), least);
    if (allowed) {
      await expect(result).resolves.toEqual({ project: expect.objectContaining({ id: project.id }), role });
    } else {
      await expect(result).rejects.toMatchObject({ code: 'forbidden_for_role', name: 'ForbiddenError' });
    }
  });

  it('names the needed role and the caller’s in a refusal', async () => {
    const { authorize } = await setUp();
    await expect(authorize(asUser('viewer-1'), 'developer')).rejects.toMatchObject({
      message: 'This needs the developer role or higher in the project; you are a viewer.',
    });
    await expect(authorize(asUser('admin-1'), 'owner')).rejects.toMatchObject({
      message: 'This needs the owner role or higher in the project; you are an admin.',
    });
  });

  it.each(PROJECT_ROLES)(
    'answers not_found, never forbidden, to a non-member, even for %s',
    async (least) => {
      const { authorize, other } = await setUp();
      await expect(authorize(asUser('stranger-1'), least)).rejects.toMatchObject({ code: 'not_found' });
      await expect(authorize(asUser(OWNER), least, other.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(
        authorize(asUser(OWNER), least, '00000000-0000-7000-8000-0000000fffff'),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
    },
  );

  it('follows membership changes at once: a new member, a demotion and a removal', async () => {
    const { authorize, members, project } = await setUp();
    await members.add({ projectId: project.id, userId: 'new-1', role: 'developer', now: project.createdAt });
    await expect(authorize(asUser('new-1'), 'developer')).resolves.toMatchObject({ role: 'developer' });
    await members.setRole(project.id, 'new-1', 'viewer', project.createdAt);
    await expect(authorize(asUser('new-1'), 'developer')).rejects.toMatchObject({
      code: 'forbidden_for_role',
    });
    await members.remove(project.id, 'new-1');
    await expect(authorize(asUser('new-1'), 'viewer')).rejects.toMatchObject({ code: 'not_found' });
  });

  describe('for an API key', () => {
    it.each(API_KEY_ROLES.flatMap((role) => PROJECT_ROLES.map((least) => [role, least] as const)))(
      'gives a %s key what needs %s only below admin and within its role',
      async (role, least) => {
        const { authorize, keyOf } = await setUp();
        const result = authorize(keyOf(role), least);
        if (roleAtLeast(least, 'admin')) {
          await expect(result).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
        } else if (roleAtLeast(role, least)) {
          await expect(result).resolves.toMatchObject({ role });
        } else {
          await expect(result).rejects.toMatchObject({ code: 'forbidden_for_role' });
        }
      },
    );

    it('refuses a key in any other project with forbidden_for_api_key', async () => {
      const { authorize, keyOf, other } = await setUp();
      await expect(authorize(keyOf('developer'), 'viewer', other.id)).rejects.toMatchObject({
        code: 'forbidden_for_api_key',
      });
    });
  });

  describe('for the service itself', () => {
    it.each(PROJECT_ROLES)('acts in its project as the owner, for %s', async (least) => {
      const { authorize, project } = await setUp();
      await expect(authorize(asSystem(project.id), least)).resolves.toMatchObject({ role: 'owner' });
    });

    it('answers not_found in another project', async () => {
      const { authorize, project, other } = await setUp();
      await expect(authorize(asSystem(project.id), 'viewer', other.id)).rejects.toMatchObject({
        code: 'not_found',
      });
    });
  });

  it('closes a project whose owner is disabled to every member, key and the service with account_disabled', async () => {
    const { authorize, keyOf, users, project } = await setUp();
    await users.setDisabled(OWNER, new Date('2026-03-02T00:00:00.000Z'));
    for (const caller of [
      ...Object.values(MEMBER_OF).map((id) => asUser(id)),
      keyOf('developer'),
      asSystem(project.id),
    ]) {
      await expect(authorize(caller, 'viewer')).rejects.toMatchObject({ code: 'account_disabled' });
    }
    // A disabled member's own account does not close the project to others.
    await users.setDisabled(OWNER, null);
    await users.setDisabled('dev-1', new Date('2026-03-02T00:00:00.000Z'));
    await expect(authorize(asUser('admin-1'), 'admin')).resolves.toMatchObject({ role: 'admin' });
  });
});

describe('secret masking', () => {
  it('shows secrets to every role but viewer', () => {
    expect(PROJECT_ROLES.filter(seesSecrets)).toEqual(['developer', 'admin', 'owner']);
  });

  it('masks every value and keeps the names', () => {
    expect(maskedValues({ TOKEN: 'abc', EMPTY: '' })).toEqual({ TOKEN: '********', EMPTY: '********' });
  });

  it('masks a URL’s signing key and password, and leaves the rest', () => {
    expect(maskedUrl('wss://host.example/cdp?session=1&signingKey=s3cret&x=2')).toBe(
      'wss://host.example/cdp?session=1&signingKey=********&x=2',
    );
    expect(maskedUrl('http://user:pa55@proxy.example:8080/path')).toBe(
      'http://user:********@proxy.example:8080/path',
    );
    expect(maskedUrl('https://host.example/plain')).toBe('https://host.example/plain');
  });
});

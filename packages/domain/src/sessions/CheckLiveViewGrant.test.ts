import {
  anApiKey,
  aProject,
  aUser,
  InMemoryApiKeyRepository,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  InMemoryUserRepository,
  ManualClock,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { CheckLiveViewGrant } from './CheckLiveViewGrant.ts';
import type { LiveViewCredential } from './liveViewToken.ts';

const OWNER = 'owner-1';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository({ users });
  const members = new InMemoryMemberRepository({ projects });
  for (const id of [OWNER, 'member-1']) await users.ensure(aUser({ id }));
  const apiKeys = new InMemoryApiKeyRepository();
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: OWNER });
  for (const p of [project, other]) await projects.add(p);
  const key = anApiKey({
    projectId: project.id,
    ownerId: OWNER,
    expiresAt: new Date('2026-03-01T13:00:00.000Z'),
  });
  const otherKey = anApiKey({ projectId: other.id, ownerId: OWNER });
  for (const k of [key, otherKey]) await apiKeys.add(k);
  const activeSignIns = new Set(['sign-in-1']);
  const identity = {
    isSignInActive: async (signIn: { userId: string; sessionId: string }) =>
      [OWNER, 'member-1'].includes(signIn.userId) && activeSignIns.has(signIn.sessionId),
  };
  const checker = new CheckLiveViewGrant({ projects, apiKeys, users, identity, clock });
  const check = (credential: LiveViewCredential, projectId = project.id, userId = OWNER, readOnly = false) =>
    checker.execute({ grant: { claims: { ...claimsOf(projectId, userId, readOnly), credential } } });
  return { clock, users, projects, members, apiKeys, project, key, otherKey, activeSignIns, check };
}

function claimsOf(projectId: string, userId: string, readOnly: boolean) {
  return {
    sessionId: 'session-1',
    projectId,
    userId,
    readOnly,
    expiresAt: new Date('2026-03-01T12:05:00.000Z'),
  };
}

describe('CheckLiveViewGrant', () => {
  it('holds a sign-in grant while the sign-in is active', async () => {
    const { check, activeSignIns } = await setUp();
    expect(await check({ kind: 'signIn', signInId: 'sign-in-1' })).toBe(true);
    expect(await check({ kind: 'signIn', signInId: 'sign-in-2' })).toBe(false);
    activeSignIns.delete('sign-in-1');
    expect(await check({ kind: 'signIn', signInId: 'sign-in-1' })).toBe(false);
  });

  it('holds an API-key grant until the key expires or is revoked', async () => {
    const { check, key, clock, apiKeys, project } = await setUp();
    const revoked = anApiKey({ projectId: project.id, ownerId: OWNER });
    await apiKeys.add(revoked);
    expect(await check({ kind: 'apiKey', keyId: revoked.id })).toBe(true);
    revoked.revoke(clock.now());
    await apiKeys.saveRevocation(revoked);
    expect(await check({ kind: 'apiKey', keyId: revoked.id })).toBe(false);
    expect(await check({ kind: 'apiKey', keyId: key.id })).toBe(true);
    clock.advance(3_600_000);
    expect(await check({ kind: 'apiKey', keyId: key.id })).toBe(false);
  });

  it('does not hold a grant naming a key of another project, nor a user’s grant for a non-member', async () => {
    const { check, otherKey } = await setUp();
    expect(await check({ kind: 'apiKey', keyId: otherKey.id })).toBe(false);
    expect(await check({ kind: 'owner' }, undefined, 'owner-2')).toBe(false);
    expect(await check({ kind: 'signIn', signInId: 'sign-in-1' }, undefined, 'owner-2')).toBe(false);
  });

  it('holds a member’s grant while they are a member, and ends it once they are removed', async () => {
    const { check, members, project, clock } = await setUp();
    await members.add({ projectId: project.id, userId: 'member-1', role: 'developer', now: clock.now() });
    expect(await check({ kind: 'signIn', signInId: 'sign-in-1' }, undefined, 'member-1')).toBe(true);
    await members.remove(project.id, 'member-1');
    expect(await check({ kind: 'signIn', signInId: 'sign-in-1' }, undefined, 'member-1')).toBe(false);
  });

  it('holds a viewer’s grant only when it is read-only, and ends a driving one when demoted', async () => {
    const { check, members, project, clock } = await setUp();
    await members.add({ projectId: project.id, userId: 'member-1', role: 'developer', now: clock.now() });
    const signIn = { kind: 'signIn', signInId: 'sign-in-1' } as const;
    expect(await check(signIn, undefined, 'member-1', false)).toBe(true);
    await members.setRole(project.id, 'member-1', 'viewer', clock.now());
    expect(await check(signIn, undefined, 'member-1', false)).toBe(false);
    expect(await check(signIn, undefined, 'member-1', true)).toBe(true);
  });

  it('holds a viewer key’s grant only when it is read-only', async () => {
    const { check, apiKeys, project } = await setUp();
    const viewerKey = anApiKey({ projectId: project.id, ownerId: OWNER, role: 'viewer' });
    await apiKeys.add(viewerKey);
    expect(await check({ kind: 'apiKey', keyId: viewerKey.id }, undefined, OWNER, false)).toBe(false);
    expect(await check({ kind: 'apiKey', keyId: viewerKey.id }, undefined, OWNER, true)).toBe(true);
  });

  it('ends every grant of a project whose owner is disabled, and a disabled member’s own grants', async () => {
    const { check, key, users, members, project, clock } = await setUp();
    await members.add({ projectId: project.id, userId: 'member-1', role: 'developer', now: clock.now() });
    await users.setDisabled('member-1', clock.now());
    expect(await check({ kind: 'owner' }, undefined, 'member-1')).toBe(false);
    expect(await check({ kind: 'owner' })).toBe(true);
    await users.setDisabled(OWNER, clock.now());
    expect(await check({ kind: 'owner' })).toBe(false);
    expect(await check({ kind: 'signIn', signInId: 'sign-in-1' })).toBe(false);
    expect(await check({ kind: 'apiKey', keyId: key.id })).toBe(false);
  });

  it('ends every grant once the project is archived or deleted', async () => {
    const { check, key, projects, project, clock } = await setUp();
    project.archive(clock.now());
    await projects.update(project);
    expect(await check({ kind: 'owner' })).toBe(false);
    expect(await check({ kind: 'apiKey', keyId: key.id })).toBe(false);
    project.restore(clock.now());
    await projects.update(project);
    expect(await check({ kind: 'owner' })).toBe(true);
    await projects.delete(OWNER, project.id);
    expect(await check({ kind: 'owner' })).toBe(false);
  });
});

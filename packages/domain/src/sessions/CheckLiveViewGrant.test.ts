import {
  anApiKey,
  aProject,
  InMemoryApiKeyRepository,
  InMemoryProjectRepository,
  ManualClock,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { CheckLiveViewGrant } from './CheckLiveViewGrant.ts';
import type { LiveViewCredential } from './liveViewToken.ts';

const OWNER = 'owner-1';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
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
      signIn.userId === OWNER && activeSignIns.has(signIn.sessionId),
  };
  const checker = new CheckLiveViewGrant({ projects, apiKeys, identity, clock });
  const check = (credential: LiveViewCredential, projectId = project.id, ownerId = OWNER) =>
    checker.execute({ grant: { claims: { ...claimsOf(projectId, ownerId), credential } } });
  return { clock, projects, apiKeys, project, key, otherKey, activeSignIns, check };
}

function claimsOf(projectId: string, ownerId: string) {
  return {
    sessionId: 'session-1',
    projectId,
    ownerId,
    readOnly: false,
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

  it('does not hold a grant naming a key of another project or another owner', async () => {
    const { check, key, otherKey } = await setUp();
    expect(await check({ kind: 'apiKey', keyId: otherKey.id })).toBe(false);
    expect(await check({ kind: 'apiKey', keyId: key.id }, undefined, 'owner-2')).toBe(false);
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

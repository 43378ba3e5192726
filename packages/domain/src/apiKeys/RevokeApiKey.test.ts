import {
  anApiKey,
  aProject,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryProjectRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { RevokeApiKey } from './RevokeApiKey.ts';

const OWNER = 'owner-1';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const apiKeys = new InMemoryApiKeyRepository();
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: OWNER });
  for (const p of [project, other]) await projects.add(p);
  const key = anApiKey({ projectId: project.id, ownerId: OWNER, now: clock.now() });
  const foreign = anApiKey({ projectId: other.id, ownerId: OWNER, now: clock.now() });
  for (const k of [key, foreign]) await apiKeys.add(k);
  clock.advance(60_000);
  const auditLog = new InMemoryAuditLog();
  const ids = new SequentialIdGenerator();
  const audit = new AuditTrail({ auditLog, transactions: directTransactions, ids, clock });
  const revokeApiKey = new RevokeApiKey({ projects, apiKeys, clock, audit });
  const revoke = (keyId = key.id, caller: Caller = asUser(OWNER)) =>
    revokeApiKey.execute({ caller, projectId: project.id, keyId });
  const revokedAt = async (keyId = key.id, projectId = project.id) =>
    (await apiKeys.findInProject(projectId, keyId))?.revokedAt?.toISOString() ?? null;
  return { clock, apiKeys, auditLog, project, other, key, foreign, revoke, revokedAt };
}

describe('RevokeApiKey', () => {
  it('stores the key as revoked now and leaves it out of the project’s list', async () => {
    const { revoke, revokedAt, apiKeys, project } = await setUp();
    await revoke();
    expect(await revokedAt()).toBe('2026-03-01T12:01:00.000Z');
    expect(await apiKeys.listInProject(project.id)).toEqual([]);
  });

  it('records the revocation in the audit log once, however often it is repeated', async () => {
    const { revoke, auditLog, key, project } = await setUp();
    await revoke();
    await revoke();
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'api_key.revoke',
        actor: expect.objectContaining({ type: 'user', id: OWNER }),
        target: { type: 'apiKey', id: key.id },
      }),
    ]);
  });

  it('succeeds again on a revoked key and keeps the first revocation time', async () => {
    const { revoke, revokedAt, clock } = await setUp();
    await revoke();
    clock.advance(60_000);
    await expect(revoke()).resolves.toBeUndefined();
    expect(await revokedAt()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('answers not_found for a key of another project and an unknown key, revoking nothing', async () => {
    const { revoke, revokedAt, foreign, other } = await setUp();
    await expect(revoke(foreign.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(revoke('00000000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({ code: 'not_found' });
    expect(await revokedAt(foreign.id, other.id)).toBeNull();
  });

  it('answers not_found to another owner and refuses an API key with forbidden_for_api_key', async () => {
    const { revoke, revokedAt, key, project } = await setUp();
    await expect(revoke(key.id, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    const keyCaller: Caller = {
      kind: 'apiKey',
      keyId: key.id,
      keyName: key.name,
      role: 'developer',
      projectId: project.id,
    };
    await expect(revoke(key.id, keyCaller)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect(await revokedAt()).toBeNull();
  });
});

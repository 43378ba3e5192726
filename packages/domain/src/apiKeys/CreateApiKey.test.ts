import {
  anApiKey,
  aProject,
  FakeApiKeySecrets,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryProjectRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import type { ApiKeyRole } from '../access/projectRoles.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { directTransactions } from '../shared/Transactions.ts';
import type { ApiKey } from './ApiKey.ts';
import type { ApiKeyRepository } from './ApiKeyRepository.ts';
import type { ApiKeySecrets } from './ApiKeySecrets.ts';
import { API_KEY_PATTERN } from './apiKeyRules.ts';
import { CreateApiKey } from './CreateApiKey.ts';

const OWNER = 'owner-1';

async function setUp(ports: { secrets?: ApiKeySecrets; apiKeys?: ApiKeyRepository } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const apiKeys = ports.apiKeys ?? new InMemoryApiKeyRepository();
  const secrets = ports.secrets ?? new FakeApiKeySecrets();
  const project = aProject({ ownerId: OWNER });
  await projects.add(project);
  const ids = new SequentialIdGenerator();
  const auditLog = new InMemoryAuditLog();
  const createApiKey = new CreateApiKey({
    projects,
    apiKeys,
    secrets,
    ids,
    clock,
    audit: new AuditTrail({ auditLog, transactions: directTransactions, ids, clock }),
  });
  const create = (
    input: { name: string; expiresAt?: Date | null; role?: ApiKeyRole },
    caller: Caller = asUser(OWNER),
  ) => createApiKey.execute({ caller, projectId: project.id, ...input });
  const stored = () => apiKeys.listInProject(project.id);
  return { clock, project, apiKeys, secrets, auditLog, create, stored };
}

/** Secrets that hand out `keys` in turn (the last one over and over). */
function secretsGiving(...keys: string[]): ApiKeySecrets & { generated: number } {
  const fake = new FakeApiKeySecrets();
  return {
    generated: 0,
    generate() {
      this.generated++;
      return keys[Math.min(this.generated, keys.length) - 1]!;
    },
    digest: (key) => fake.digest(key),
    matches: (key, digest) => fake.matches(key, digest),
  };
}

const KEY_A = `bdk_aaaaaaaa${'1'.repeat(35)}`;
const KEY_A2 = `bdk_aaaaaaaa${'2'.repeat(35)}`;
const KEY_B = `bdk_bbbbbbbb${'1'.repeat(35)}`;

describe('CreateApiKey', () => {
  it('stores only the prefix and digest of a new key and shows the key itself once', async () => {
    const { create, stored, secrets, project } = await setUp();
    const expiresAt = new Date('2026-04-01T00:00:00.000Z');
    const { apiKey, key } = await create({ name: '  CI  ', expiresAt });
    expect(key).toMatch(API_KEY_PATTERN);
    expect(apiKey).toMatchObject({
      projectId: project.id,
      ownerId: OWNER,
      name: 'CI',
      role: 'developer',
      prefix: key.slice(0, 12),
      digest: secrets.digest(key),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(apiKey.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    const [only, ...rest] = await stored();
    expect(rest).toEqual([]);
    expect({ ...only }).toEqual({ ...apiKey });
    expect(Object.values(only as ApiKey)).not.toContain(key);
  });

  it('records the create in the audit log, naming the key by id, never by its secret', async () => {
    const { create, auditLog, project } = await setUp();
    const { apiKey, key } = await create({ name: 'CI' });
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'api_key.create',
        actor: expect.objectContaining({ type: 'user', id: OWNER }),
        target: { type: 'apiKey', id: apiKey.id },
      }),
    ]);
    expect(JSON.stringify(auditLog.entries())).not.toContain(key);
  });

  it('makes a viewer key when asked for one', async () => {
    const { create, stored } = await setUp();
    const { apiKey } = await create({ name: 'read-only', role: 'viewer' });
    expect(apiKey.role).toBe('viewer');
    expect((await stored()).map((k) => k.role)).toEqual(['viewer']);
  });

  it('makes a key without expiry when none is given', async () => {
    const { create } = await setUp();
    expect((await create({ name: 'forever' })).apiKey.expiresAt).toBeNull();
  });

  it.each<[string, { name: string; expiresAt?: Date }, string]>([
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a control character in the name', { name: 'c\u0007i' }, 'name'],
    ['an expiry now', { name: 'ci', expiresAt: new Date('2026-03-01T12:00:00.000Z') }, 'expiresAt'],
    ['an expiry in the past', { name: 'ci', expiresAt: new Date('2026-02-01T00:00:00.000Z') }, 'expiresAt'],
  ])('refuses %s with validation_failed and stores nothing', async (_, input, path) => {
    const { create, stored } = await setUp();
    await expect(create(input)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path })],
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses an API key with forbidden_for_api_key and another owner with not_found', async () => {
    const { create, stored, project } = await setUp();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(create({ name: 'ci' }, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    await expect(create({ name: 'ci' }, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    expect(await stored()).toEqual([]);
  });

  it('tries a fresh key when the prefix is taken', async () => {
    const secrets = secretsGiving(KEY_A2, KEY_B);
    const { create, stored, apiKeys, project } = await setUp({ secrets });
    await apiKeys.add(anApiKey({ projectId: project.id, ownerId: OWNER, prefix: KEY_A.slice(0, 12) }));
    const { key, apiKey } = await create({ name: 'second' });
    expect(secrets.generated).toBe(2);
    expect(key).toBe(KEY_B);
    expect(apiKey.prefix).toBe('bdk_bbbbbbbb');
    expect((await stored()).map((k) => k.prefix).sort()).toEqual(['bdk_aaaaaaaa', 'bdk_bbbbbbbb']);
  });

  it('gives up after three keys with a taken prefix', async () => {
    const secrets = secretsGiving(KEY_A2);
    const { create, stored, apiKeys, project } = await setUp({ secrets });
    await apiKeys.add(
      anApiKey({ projectId: project.id, ownerId: OWNER, name: 'first', prefix: 'bdk_aaaaaaaa' }),
    );
    await expect(create({ name: 'second' })).rejects.toThrow();
    expect(secrets.generated).toBe(3);
    expect((await stored()).map((k) => k.name)).toEqual(['first']);
  });

  it('does not retry a store failure that is no prefix clash', async () => {
    const failing = new InMemoryApiKeyRepository();
    failing.add = async () => {
      throw new Error('database down');
    };
    const secrets = secretsGiving(KEY_A, KEY_B);
    const { create } = await setUp({ secrets, apiKeys: failing });
    await expect(create({ name: 'ci' })).rejects.toThrow('database down');
    expect(secrets.generated).toBe(1);
  });
});

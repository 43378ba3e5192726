import {
  aProject,
  FakeApiKeySecrets,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryIdentityProvider,
  InMemoryProjectRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateApiKey } from '../apiKeys/CreateApiKey.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import type { Logger } from '../shared/Logger.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { Authenticate } from './Authenticate.ts';
import { User } from './User.ts';

const OWNER = 'owner-1';
const UNAUTHORIZED = { code: 'unauthorized' };

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const identity = new InMemoryIdentityProvider({ ids, clock });
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository({ users });
  const apiKeys = new InMemoryApiKeyRepository();
  const secrets = new FakeApiKeySecrets();
  await users.ensure(User.create({ id: OWNER, email: 'owner@example.com', createdAt: clock.now() }));
  const project = aProject({ ownerId: OWNER });
  await projects.add(project);
  const warnings: string[] = [];
  const logger: Logger = { warn: (_, message) => warnings.push(message), error() {} };
  const authenticate = new Authenticate({ identity, apiKeys, secrets, projects, users, clock, logger });
  const as = (accessToken: string | undefined) => authenticate.execute({ accessToken });
  const audit = new AuditTrail({
    auditLog: new InMemoryAuditLog(),
    transactions: directTransactions,
    ids,
    clock,
  });
  const newKey = async (expiresAt: Date | null = null) =>
    new CreateApiKey({ projects, apiKeys, secrets, ids, clock, audit }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      name: 'ci',
      expiresAt,
    });
  const lastUsedAt = async (keyId: string) =>
    (await apiKeys.findInProject(project.id, keyId))?.lastUsedAt?.toISOString() ?? null;
  return { clock, identity, users, projects, apiKeys, project, warnings, as, newKey, lastUsedAt };
}

describe('Authenticate', () => {
  it('refuses a missing credential with unauthorized', async () => {
    const { as } = await setUp();
    await expect(as(undefined)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(as('')).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('turns a user’s access token into that signed-in user, and refuses an unknown one', async () => {
    const { as, identity } = await setUp();
    await identity.signUp({ email: 'ada@example.com', password: 'correct horse', metadata: {} });
    const grant = await identity.signIn('ada@example.com', 'correct horse');
    const caller = await as(grant.accessToken);
    expect(caller).toMatchObject({
      kind: 'user',
      userId: grant.user.id,
      signIn: { userId: grant.user.id, email: 'ada@example.com' },
    });
    await expect(as('at-unknown')).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('turns a project API key into a key caller for its project and stamps its use', async () => {
    const { as, newKey, project, lastUsedAt } = await setUp();
    const { key, apiKey } = await newKey();
    expect(await as(key)).toEqual({
      kind: 'apiKey',
      keyId: apiKey.id,
      keyName: 'ci',
      role: 'developer',
      projectId: project.id,
    });
    expect(await lastUsedAt(apiKey.id)).toBe('2026-03-01T12:00:00.000Z');
  });

  it('refuses the access token of a disabled account with account_disabled, at once', async () => {
    const { as, identity, users, clock } = await setUp();
    const { id } = await identity.signUp({
      email: 'ada@example.com',
      password: 'correct horse',
      metadata: {},
    });
    await users.ensure(User.create({ id, email: 'ada@example.com', createdAt: clock.now() }));
    const grant = await identity.signIn('ada@example.com', 'correct horse');
    await expect(as(grant.accessToken)).resolves.toMatchObject({ kind: 'user', userId: id });
    await users.setDisabled(id, clock.now());
    await expect(as(grant.accessToken)).rejects.toMatchObject({ code: 'account_disabled' });
    await users.setDisabled(id, null);
    await expect(as(grant.accessToken)).resolves.toMatchObject({ kind: 'user', userId: id });
  });

  it('refuses the keys of a project whose owner is disabled with account_disabled', async () => {
    const { as, newKey, users, clock } = await setUp();
    const { key } = await newKey();
    await expect(as(key)).resolves.toMatchObject({ kind: 'apiKey' });
    await users.setDisabled(OWNER, clock.now());
    await expect(as(key)).rejects.toMatchObject({ code: 'account_disabled' });
  });

  it('stamps a key’s use at most once a minute', async () => {
    const { as, newKey, clock, lastUsedAt } = await setUp();
    const { key, apiKey } = await newKey();
    await as(key);
    clock.advance(59_999);
    await as(key);
    expect(await lastUsedAt(apiKey.id)).toBe('2026-03-01T12:00:00.000Z');
    // Past the minute: the store writes only when the last stamp lies before now minus a minute.
    clock.advance(2);
    await as(key);
    expect(await lastUsedAt(apiKey.id)).toBe('2026-03-01T12:01:00.001Z');
  });

  it('refuses a malformed key, an unknown prefix and a wrong secret behind a known prefix', async () => {
    const { as, newKey } = await setUp();
    const { key } = await newKey();
    await expect(as('bdk_short')).rejects.toMatchObject(UNAUTHORIZED);
    await expect(as(`bdk_zzzzzzzz${key.slice(12)}`)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(as(`${key.slice(0, 12)}${'x'.repeat(35)}`)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a revoked key and an expired one with unauthorized', async () => {
    const { as, newKey, apiKeys, clock } = await setUp();
    const revoked = await newKey();
    revoked.apiKey.revoke(clock.now());
    await apiKeys.saveRevocation(revoked.apiKey);
    await expect(as(revoked.key)).rejects.toMatchObject(UNAUTHORIZED);
    const expiring = await newKey(new Date('2026-03-01T13:00:00.000Z'));
    await expect(as(expiring.key)).resolves.toMatchObject({ kind: 'apiKey' });
    clock.advance(3_600_000);
    await expect(as(expiring.key)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a key of an archived project with forbidden_for_api_key, and of a deleted one with unauthorized', async () => {
    const { as, newKey, projects, project } = await setUp();
    const { key } = await newKey();
    project.archive(new Date('2026-03-01T12:00:00.000Z'));
    await projects.update(project);
    await expect(as(key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    await projects.delete(OWNER, project.id);
    await expect(as(key)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('lets a valid key through when its use cannot be stamped, and logs a warning', async () => {
    const { as, newKey, apiKeys, warnings } = await setUp();
    const { key, apiKey } = await newKey();
    apiKeys.stampUsage = async () => {
      throw new Error('database down');
    };
    await expect(as(key)).resolves.toMatchObject({ kind: 'apiKey', keyId: apiKey.id });
    expect(warnings).toEqual(['could not stamp API key use']);
  });
});

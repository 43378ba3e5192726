import {
  aRun,
  FakeApiKeySecrets,
  givenSessionWorld,
  givenTwoInstances,
  InMemoryApiKeyRepository,
  InMemoryIdentityProvider,
  InMemoryUsageRepository,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { authorizeProject } from '../access/authorizeProject.ts';
import { asUser, type Caller } from '../access/Caller.ts';
import { CreateApiKey } from '../apiKeys/CreateApiKey.ts';
import { AccountAdmission } from '../auth/AccountAdmission.ts';
import { Authenticate } from '../auth/Authenticate.ts';
import { SignIn } from '../auth/SignIn.ts';
import { User } from '../auth/User.ts';
import { Project } from '../projects/Project.ts';
import { CreateSession } from '../sessions/CreateSession.ts';
import { FixedWindowRateLimiter } from '../shared/FixedWindowRateLimiter.ts';
import type { Logger } from '../shared/Logger.ts';
import { DisableAccount } from './DisableAccount.ts';
import { EnableAccount } from './EnableAccount.ts';

const OPERATOR = 'op-1';
const ADMIN_EMAILS = ['ops@example.com', 'ops2@example.com'];

async function setUp(world?: Awaited<ReturnType<typeof givenSessionWorld>>) {
  const w = world ?? (await givenSessionWorld());
  const { users, projects, sessions, runs, clock, ids } = w;
  const secrets = new FakeApiKeySecrets();
  const admission = new AccountAdmission({
    invitations: w.invitations,
    secrets,
    clock,
    adminEmails: ADMIN_EMAILS,
  });
  await users.ensure(User.create({ id: OPERATOR, email: 'ops@example.com', createdAt: clock.now() }));
  await users.ensure(User.create({ id: 'dev-1', email: 'dev-1@example.com', createdAt: clock.now() }));
  await w.members.add({ projectId: w.project.id, userId: 'dev-1', role: 'developer', now: clock.now() });
  const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
  const logger: Logger = { warn: (details, message) => warnings.push({ details, message }), error: () => {} };
  const usage = new InMemoryUsageRepository({ projects, sessions, runs });
  const deps = { ...w, secrets, admission, usage, logger };
  const disableAccount = new DisableAccount(deps);
  const disable = (userId: string, caller: Caller = asUser(OPERATOR)) =>
    disableAccount.execute({ caller, userId });
  const enable = (userId: string, caller: Caller = asUser(OPERATOR)) =>
    new EnableAccount(deps).execute({ caller, userId });
  const disabledAt = async (userId: string) => (await users.findById(userId))?.disabledAt ?? null;
  /** A second operator's account (its e-mail is in ADMIN_EMAILS). */
  const givenSecondOperator = () =>
    users.ensure(User.create({ id: 'op-2', email: 'ops2@example.com', createdAt: clock.now() }));
  /** A project of `ownerId` (with a user record) that the world's owner is a developer in. */
  const givenOthersProject = async (ownerId: string) => {
    await users.ensure(User.create({ id: ownerId, email: `${ownerId}@example.com`, createdAt: clock.now() }));
    const project = Project.create({
      id: ids.next(),
      ownerId,
      name: 'Theirs',
      slug: 'theirs',
      now: clock.now(),
    });
    await projects.add(project);
    await w.members.add({ projectId: project.id, userId: w.ownerId, role: 'developer', now: clock.now() });
    return project;
  };
  return {
    ...w,
    deps,
    secrets,
    admission,
    warnings,
    disable,
    enable,
    disabledAt,
    givenSecondOperator,
    givenOthersProject,
  };
}

describe('DisableAccount', () => {
  it('lets an operator disable an account, stored at once and recorded as the operator’s', async () => {
    const { disable, disabledAt, auditLog, ownerId, clock } = await setUp();
    const answer = await disable(ownerId);
    expect(answer).toMatchObject({ user: { id: ownerId, disabledAt: clock.now() }, operator: false });
    expect(await disabledAt(ownerId)).toEqual(clock.now());
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: null,
        action: 'account.disable',
        actor: expect.objectContaining({ type: 'operator', id: OPERATOR }),
        target: { type: 'user', id: ownerId },
      }),
    ]);
  });

  it('cancels the runs and releases the sessions of every project the account owns', async () => {
    const w = await setUp();
    const { disable, ownerId, project, runs, runQueue, runChanges, provider, sessions, clock } = w;
    const second = await w.addProject('Second', 'second');
    const [a, b] = [await w.startSession(), await w.startSession({}, second.id)];
    const queued = aRun({ projectId: project.id, ownerId });
    const running = aRun({ projectId: second.id, ownerId, status: 'RUNNING' });
    const done = aRun({ projectId: project.id, ownerId, status: 'SUCCEEDED' });
    for (const run of [queued, running, done]) await runs.add(run);
    clock.advance(1_000);
    await disable(ownerId);
    expect(provider.running).toEqual([]);
    for (const session of [a!, b!]) {
      expect(await sessions.findInProject(session.projectId, session.id)).toMatchObject({
        status: 'COMPLETED',
        endedAt: clock.now(),
      });
    }
    expect(await runs.findById(running.id)).toMatchObject({
      status: 'CANCELED',
      error: { code: 'canceled', message: 'The run was canceled: its account was disabled by an operator.' },
    });
    expect((await runs.findById(queued.id))?.status).toBe('CANCELED');
    expect((await runs.findById(done.id))?.status).toBe('SUCCEEDED');
    expect(runQueue.interrupted.sort()).toEqual([queued.id, running.id].sort());
    expect(runChanges.notified.sort()).toEqual([queued.id, running.id].sort());
  });

  it('leaves running what the account works on in projects it does not own', async () => {
    const w = await setUp();
    const theirs = await w.givenOthersProject('owner-2');
    const session = await w.startSession({}, theirs.id);
    const run = aRun({ projectId: theirs.id, ownerId: 'owner-2', status: 'RUNNING' });
    await w.runs.add(run);
    await w.disable(w.ownerId);
    expect(w.provider.running).toEqual([session.providerSessionId]);
    expect((await w.runs.findById(run.id))?.status).toBe('RUNNING');
  });

  it('logs the sessions another instance holds: only that instance can end them', async () => {
    const world = await givenTwoInstances();
    const w = await setUp(world);
    const { session: onB } = await new CreateSession({ ...world, provider: world.other }).execute({
      caller: w.owner,
      projectId: w.project.id,
      request: {},
    });
    await w.disable(w.ownerId);
    expect(w.warnings).toEqual([
      {
        details: { userId: w.ownerId, projectId: w.project.id, sessions: [onB.id] },
        message: expect.stringContaining('another instance'),
      },
    ]);
    expect(world.other.running).toEqual([onB.providerSessionId]);
  });

  it('refuses the account’s later sign-ins and access tokens, and its projects’ API keys', async () => {
    const w = await setUp();
    const identity = new InMemoryIdentityProvider({ ids: w.ids, clock: w.clock });
    const { id } = await identity.signUp({
      email: 'ada@example.com',
      password: 'correct horse',
      metadata: {},
    });
    await w.users.ensure(User.create({ id, email: 'ada@example.com', createdAt: w.clock.now() }));
    const rateLimiter = new FixedWindowRateLimiter({ clock: w.clock });
    const signIn = () =>
      new SignIn({ identity, users: w.users, rateLimiter }).execute({
        email: 'ada@example.com',
        password: 'correct horse',
      });
    const grant = await signIn();
    const apiKeys = new InMemoryApiKeyRepository();
    const { key } = await new CreateApiKey({ ...w, apiKeys, secrets: w.secrets }).execute({
      caller: w.owner,
      projectId: w.project.id,
      name: 'CI',
    });
    const authenticate = new Authenticate({ ...w, identity, apiKeys, secrets: w.secrets });
    const as = (accessToken: string) => authenticate.execute({ accessToken });
    await expect(as(grant.accessToken)).resolves.toMatchObject({ kind: 'user', userId: id });
    await expect(as(key)).resolves.toMatchObject({ kind: 'apiKey' });

    await w.disable(id);
    await expect(signIn()).rejects.toMatchObject({ code: 'account_disabled' });
    await expect(as(grant.accessToken)).rejects.toMatchObject({ code: 'account_disabled' });
    await w.disable(w.ownerId);
    await expect(as(key)).rejects.toMatchObject({ code: 'account_disabled' });
  });

  it('closes the account’s projects to their other members with account_disabled', async () => {
    const { disable, projects, project, ownerId } = await setUp();
    await disable(ownerId);
    await expect(authorizeProject(projects, asUser('dev-1'), project.id, 'viewer')).rejects.toMatchObject({
      code: 'account_disabled',
    });
  });

  it('answers a disabled account as it is, without a second entry or stop', async () => {
    const { disable, disabledAt, auditLog, ownerId, clock } = await setUp();
    await disable(ownerId);
    const first = await disabledAt(ownerId);
    clock.advance(60_000);
    await expect(disable(ownerId)).resolves.toMatchObject({ user: { disabledAt: first } });
    expect(auditLog.entries()).toHaveLength(1);
  });

  it('refuses a non-operator with operator_only, an API key with forbidden_for_api_key, and changes nothing', async () => {
    const { disable, disabledAt, auditLog, ownerId, owner, project } = await setUp();
    await expect(disable('dev-1', owner)).rejects.toMatchObject({ code: 'operator_only' });
    await expect(disable(ownerId, asUser('dev-1'))).rejects.toMatchObject({ code: 'operator_only' });
    await expect(disable(ownerId, asUser('nobody-1'))).rejects.toMatchObject({ code: 'operator_only' });
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(disable(ownerId, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect(await disabledAt(ownerId)).toBeNull();
    expect(await disabledAt('dev-1')).toBeNull();
    expect(auditLog.entries()).toEqual([]);
  });

  it('refuses a disabled operator with operator_only', async () => {
    const { disable, givenSecondOperator, disabledAt, ownerId } = await setUp();
    await givenSecondOperator();
    await disable('op-2');
    await expect(disable(ownerId, asUser('op-2'))).rejects.toMatchObject({ code: 'operator_only' });
    expect(await disabledAt(ownerId)).toBeNull();
  });

  it('refuses to disable the last enabled operator with last_operator', async () => {
    const { disable, disabledAt } = await setUp();
    await expect(disable(OPERATOR)).rejects.toMatchObject({ code: 'last_operator' });
    expect(await disabledAt(OPERATOR)).toBeNull();
  });

  it('disables an operator while another enabled one remains, and then refuses the last', async () => {
    const { disable, disabledAt, givenSecondOperator } = await setUp();
    await givenSecondOperator();
    await expect(disable('op-2')).resolves.toMatchObject({ user: { id: 'op-2' }, operator: true });
    expect(await disabledAt('op-2')).not.toBeNull();
    await expect(disable(OPERATOR)).rejects.toMatchObject({ code: 'last_operator' });
  });

  it('answers not_found for an unknown account', async () => {
    const { disable } = await setUp();
    await expect(disable('nobody-1')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('is undone by EnableAccount: the account signs in again, what ended stays ended', async () => {
    const { disable, enable, disabledAt, auditLog, ownerId, projects, project, provider, startSession } =
      await setUp();
    await startSession();
    await disable(ownerId);
    await expect(enable(ownerId)).resolves.toMatchObject({ user: { id: ownerId, disabledAt: null } });
    expect(await disabledAt(ownerId)).toBeNull();
    expect(
      auditLog
        .entries()
        .filter((e) => e.projectId === null)
        .map((e) => e.action),
    ).toEqual(['account.enable', 'account.disable']);
    await expect(authorizeProject(projects, asUser('dev-1'), project.id, 'viewer')).resolves.toBeDefined();
    expect(provider.running).toEqual([]);
  });
});

import { Agent, ApiKey, BrowserSession, Project, Run, User } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { anAgent } from './anAgent.ts';
import { anApiKey } from './anApiKey.ts';
import { aProject } from './aProject.ts';
import { aRun } from './aRun.ts';
import { aSession } from './aSession.ts';
import { aUser } from './aUser.ts';
import { BUILT_AT, BUILT_OWNER_ID, BUILT_PROJECT_ID } from './builderDefaults.ts';

describe('test-data builders', () => {
  it('build domain objects through their factories, each with its own id and unique names', () => {
    const built = [aUser(), aUser(), aProject(), aProject(), anAgent(), anAgent(), anApiKey(), anApiKey()];
    expect(built.map((b) => b.constructor)).toEqual([
      User,
      User,
      Project,
      Project,
      Agent,
      Agent,
      ApiKey,
      ApiKey,
    ]);
    expect(new Set(built.map((b) => b.id)).size).toBe(built.length);
    const [p1, p2] = [aProject(), aProject()];
    expect(p1.slug).not.toBe(p2.slug);
    expect(anAgent().name).not.toBe(anAgent().name);
    expect(anApiKey().prefix).not.toBe(anApiKey().prefix);
  });

  it('default to the shared owner, project and time', () => {
    expect(aProject()).toMatchObject({ ownerId: BUILT_OWNER_ID, archived: false, createdAt: BUILT_AT });
    expect(anAgent()).toMatchObject({ projectId: BUILT_PROJECT_ID, region: 'us-west-2', timeoutSec: 300 });
    expect(anApiKey()).toMatchObject({
      projectId: BUILT_PROJECT_ID,
      ownerId: BUILT_OWNER_ID,
      revokedAt: null,
    });
    expect(aUser().createdAt).toEqual(BUILT_AT);
  });

  it('take overrides, validated by the factory where it validates', () => {
    expect(anAgent({ name: 'x', envVars: { A: '1' } })).toMatchObject({ name: 'x', envVars: { A: '1' } });
    expect(aProject({ name: '  Trimmed ', archived: true })).toMatchObject({
      name: 'Trimmed',
      archived: true,
    });
    expect(() => aProject({ slug: 'Not A Slug' })).toThrow();
  });

  it('build a running session by default and take settings and snapshot fields flat', () => {
    const running = aSession();
    expect(running).toBeInstanceOf(BrowserSession);
    expect(running).toMatchObject({
      status: 'RUNNING',
      provider: 'fake',
      endedAt: null,
      providerInstanceId: null,
    });
    expect(running.expiresAt?.getTime()).toBe(BUILT_AT.getTime() + 300_000);
    const ended = aSession({ status: 'COMPLETED', env: { A: '1' }, instanceId: 'i-1', expiresAt: null });
    expect(ended).toMatchObject({
      status: 'COMPLETED',
      env: { A: '1' },
      providerInstanceId: 'i-1',
      expiresAt: null,
    });
    expect(ended.endedAt).toEqual(BUILT_AT);
  });

  it('build a queued ad-hoc run by default, moved to a status through the entity’s methods', () => {
    const queued = aRun();
    expect(queued).toBeInstanceOf(Run);
    expect(queued).toMatchObject({
      status: 'QUEUED',
      projectId: BUILT_PROJECT_ID,
      ownerId: BUILT_OWNER_ID,
      agentId: null,
      sessionRequest: null,
      createdAt: BUILT_AT,
    });
    expect(aRun({ status: 'RUNNING', workerId: 'w/1' })).toMatchObject({
      workerId: 'w/1',
      startedAt: BUILT_AT,
    });
    const canceled = aRun({ status: 'CANCELED' });
    expect(canceled).toMatchObject({ error: { code: 'canceled' }, workerId: null });
    expect(canceled.durationMs).toBe(60_000);
    expect(aRun({ status: 'TIMED_OUT' }).error?.code).toBe('timed_out');
    expect(aRun({ status: 'FAILED' }).error?.code).toBe('script_error');
  });
});

import { givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import type { BrowserSession } from '../sessions/BrowserSession.ts';
import { ReleaseSession } from '../sessions/ReleaseSession.ts';
import { DomainError } from '../shared/DomainError.ts';
import type { SessionRunRequest } from './StartSessionRun.ts';

async function setUp() {
  const world = await givenRunWorld();
  const session = await world.startSession({ script: 'return 42;', env: { FROM_SESSION: 's', SHARED: 's' } });
  const start = (
    request: SessionRunRequest = {},
    options: { key?: string; caller?: Caller; on?: BrowserSession } = {},
  ) =>
    world.runs.startSessionRun.execute({
      caller: options.caller ?? world.owner,
      projectId: world.project.id,
      sessionId: (options.on ?? session).id,
      request,
      idempotencyKey: options.key,
    });
  return { ...world, session, start };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof DomainError ? error.code : String(error);
}

describe('StartSessionRun', () => {
  it('stores an ad-hoc run on the session: its own script by default, 300 s, env merged, no session request', async () => {
    const { start, session, runRepository, runQueue, ownerId } = await setUp();
    const { run, replayed } = await start({ env: { SHARED: 'r' }, input: [1, 2] });
    expect(replayed).toBe(false);
    expect(await runRepository.findById(run.id)).toMatchObject({
      status: 'QUEUED',
      ownerId,
      agentId: null,
      sessionId: session.id,
      script: 'return 42;',
      timeoutSec: 300,
      env: { FROM_SESSION: 's', SHARED: 'r' },
      input: [1, 2],
      sessionRequest: null,
    });
    expect(run.ownsSession).toBe(false);
    expect(runQueue.enqueued.map((e) => e.runId)).toEqual([run.id]);
  });

  it('runs the script and timeout of the request when given', async () => {
    const { start, runRepository } = await setUp();
    const { run } = await start({ script: 'return 1;', timeoutSec: 12 });
    expect(await runRepository.findById(run.id)).toMatchObject({ script: 'return 1;', timeoutSec: 12 });
  });

  it('refuses an ended session, a blank script, an unknown session and an archived project', async () => {
    const world = await setUp();
    const { start, startSession, projects, project, clock, runRepository, provider, sessions } = world;
    const scriptless = await startSession({});
    expect(await codeOf(start({}, { on: scriptless }))).toBe('script_empty');
    expect(await codeOf(start({ script: '   ' }))).toBe('script_empty');
    const ended = await startSession({ script: 'return 1;' });
    await new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: world.owner,
      projectId: project.id,
      sessionId: ended.id,
    });
    expect(await codeOf(start({}, { on: ended }))).toBe('session_ended');
    expect(
      await codeOf(
        start({}, { on: { ...ended, id: '00000000-0000-7000-8000-00000000dead' } as BrowserSession }),
      ),
    ).toBe('not_found');
    project.archive(clock.now());
    await projects.update(project);
    expect(await codeOf(start({}))).toBe('project_archived');
    expect(runRepository.all()).toEqual([]);
  });

  it('answers not_found for another user, and for a session of another project', async () => {
    const { start, startSession, addProject, runRepository } = await setUp();
    expect(await codeOf(start({}, { caller: asUser('owner-2') }))).toBe('not_found');
    const other = await addProject('Other', 'other');
    const elsewhere = await startSession({ script: 'return 1;' }, other.id);
    expect(await codeOf(start({}, { on: elsewhere }))).toBe('not_found');
    expect(runRepository.all()).toEqual([]);
  });

  it('validates the script it is given, the input and the timeout', async () => {
    const { start } = await setUp();
    const error = await start({
      script: 'a\u0000b',
      timeoutSec: 21_601,
      input: { f: 'x'.repeat(70_000) },
    }).catch((e: unknown) => e as DomainError);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).errors?.map((e) => e.path).sort()).toEqual([
      'input',
      'script',
      'timeoutSec',
    ]);
  });

  it('answers a retry with the same Idempotency-Key and body with the same run', async () => {
    const { start, runRepository } = await setUp();
    const first = await start({ script: 'return 2;' }, { key: 'k' });
    expect(await start({ script: 'return 2;' }, { key: 'k' })).toMatchObject({
      replayed: true,
      run: { id: first.run.id },
    });
    expect(await codeOf(start({ script: 'return 3;' }, { key: 'k' }))).toBe('idempotency_key_reused');
    expect(runRepository.all()).toHaveLength(1);
  });
});

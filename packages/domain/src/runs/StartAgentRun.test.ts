import { givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { DomainError } from '../shared/DomainError.ts';
import { RUN_INPUT_MAX_BYTES, RUN_MAX_QUEUED_PER_OWNER_DEFAULT } from './runRules.ts';
import type { AgentRunRequest } from './StartAgentRun.ts';

async function setUp() {
  const world = await givenRunWorld();
  const agent = await world.givenAgent({
    script: 'return await page.title();',
    envVars: { TOKEN: 'agent-token', SHARED: 'agent' },
    region: 'eu-central-1',
    timeoutSec: 900,
    contextId: 'ctx-1',
    extensionId: 'ext-1',
    providerProjectId: 'bb-project',
  });
  const start = (
    request: AgentRunRequest = {},
    options: { key?: string; caller?: Caller; agentId?: string } = {},
  ) =>
    world.runs.startAgentRun.execute({
      caller: options.caller ?? world.owner,
      projectId: world.project.id,
      agentId: options.agentId ?? agent.id,
      request,
      idempotencyKey: options.key,
    });
  return { ...world, agent, start };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('StartAgentRun', () => {
  it('stores a QUEUED run with the agent’s script, merged env and its session request, and queues it', async () => {
    const { start, agent, project, ownerId, runRepository, runQueue, clock } = await setUp();
    const { run, replayed } = await start({
      input: { url: 'https://example.com' },
      env: { SHARED: 'request', X: '1' },
    });
    expect(replayed).toBe(false);
    expect(await runRepository.findById(run.id)).toMatchObject({
      projectId: project.id,
      ownerId,
      agentId: agent.id,
      sessionId: null,
      status: 'QUEUED',
      script: 'return await page.title();',
      input: { url: 'https://example.com' },
      env: { TOKEN: 'agent-token', SHARED: 'request', X: '1' },
      timeoutSec: 900,
      createdAt: clock.now(),
      sessionRequest: {
        agentId: agent.id,
        region: 'eu-central-1',
        timeoutSec: 930,
        contextId: 'ctx-1',
        extensionId: 'ext-1',
        projectId: 'bb-project',
      },
    });
    expect(runQueue.enqueued).toEqual([{ runId: run.id, ownerId: run.ownerId, delayMs: undefined }]);
  });

  it('refuses an account with RUN_MAX_QUEUED_PER_OWNER runs queued: 429 run_queue_full, nothing stored', async () => {
    const { start, runRepository, runQueue } = await setUp();
    for (let i = 0; i < RUN_MAX_QUEUED_PER_OWNER_DEFAULT; i++) await start({});
    const refused = await failure(start({}));
    expect(refused).toMatchObject({ code: 'run_queue_full', retryAfterSec: expect.any(Number) });
    expect(runRepository.all()).toHaveLength(RUN_MAX_QUEUED_PER_OWNER_DEFAULT);
    expect(runQueue.enqueued).toHaveLength(RUN_MAX_QUEUED_PER_OWNER_DEFAULT);
    // One that started makes room for one more.
    const first = runRepository.all()[0]!;
    first.start('instance-1/0', new Date());
    await runRepository.update(first, 'QUEUED');
    await start({});
    expect((await failure(start({}))).code).toBe('run_queue_full');
  });

  it('takes timeoutSec and region from the request; the session lives at least 60 s and at most 21600 s', async () => {
    const { start, runRepository } = await setUp();
    const short = (await start({ timeoutSec: 5, region: 'us-east-1' })).run;
    expect(await runRepository.findById(short.id)).toMatchObject({
      timeoutSec: 5,
      sessionRequest: { region: 'us-east-1', timeoutSec: 60 },
    });
    const long = (await start({ timeoutSec: 21_600 })).run;
    expect((await runRepository.findById(long.id))!.sessionRequest).toMatchObject({ timeoutSec: 21_600 });
    expect((await start({})).run.input).toBeNull();
  });

  it('refuses an archived project, a missing agent, an inactive one and one without a script, storing nothing', async () => {
    const world = await setUp();
    const { start, givenAgent, projects, project, clock, runRepository, runQueue } = world;
    expect((await failure(start({}, { agentId: '00000000-0000-7000-8000-00000000dead' }))).code).toBe(
      'not_found',
    );
    const inactive = await givenAgent({ name: 'Off', active: false });
    expect((await failure(start({}, { agentId: inactive.id }))).code).toBe('agent_inactive');
    const blank = await givenAgent({ name: 'Blank', script: '  \n\t ' });
    expect((await failure(start({}, { agentId: blank.id }))).code).toBe('script_empty');
    project.archive(clock.now());
    await projects.update(project);
    expect((await failure(start({}))).code).toBe('project_archived');
    expect(runRepository.all()).toEqual([]);
    expect(runQueue.enqueued).toEqual([]);
  });

  it('answers not_found for another user’s project, and acts for an API key of the project', async () => {
    const { start, project, ownerId, runRepository } = await setUp();
    expect((await failure(start({}, { caller: asUser('owner-2') }))).code).toBe('not_found');
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k1',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    const { run } = await start({}, { caller: key });
    expect((await runRepository.findById(run.id))!.ownerId).toBe(ownerId);
    const otherProjectKey: Caller = {
      kind: 'apiKey',
      keyId: 'k2',
      projectId: 'another',
      keyName: 'CI',
      role: 'developer',
    };
    expect((await failure(start({}, { caller: otherProjectKey }))).code).toBe('forbidden_for_api_key');
  });

  it('names every field that breaks a rule: input size, env keys, timeoutSec, region', async () => {
    const { start, runRepository } = await setUp();
    const error = await failure(
      start({
        input: 'x'.repeat(RUN_INPUT_MAX_BYTES),
        env: { 'not-a-key': 'v', NUL: 'a\u0000b' },
        timeoutSec: 0,
        region: 'mars-1',
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.errors?.map((e) => e.path).sort()).toEqual(
      ['env.NUL', 'env.not-a-key', 'input', 'region', 'timeoutSec'].sort(),
    );
    for (const timeoutSec of [21_601, 1.5]) {
      expect((await failure(start({ timeoutSec }))).errors).toEqual([
        { path: 'timeoutSec', message: expect.any(String) },
      ]);
    }
    expect((await failure(start({ input: { s: 'a\u0000' } }))).errors?.[0]?.path).toBe('input');
    expect((await failure(start({ input: { big: 10n } }))).errors?.[0]?.path).toBe('input');
    expect(runRepository.all()).toEqual([]);
  });

  it('accepts an input of exactly the limit, as JSON bytes', async () => {
    const { start } = await setUp();
    // Two quotes around the string make it RUN_INPUT_MAX_BYTES bytes of JSON.
    const { run } = await start({ input: 'x'.repeat(RUN_INPUT_MAX_BYTES - 2) });
    expect(run.status).toBe('QUEUED');
  });

  it('ends the run FAILED runner_failed and throws when the queue refuses it', async () => {
    const { start, runRepository, runQueue, runChanges } = await setUp();
    runQueue.failNextEnqueue = new Error('queue down');
    await expect(start({})).rejects.toThrow('queue down');
    const [stored] = runRepository.all();
    expect(stored).toMatchObject({
      status: 'FAILED',
      error: { code: 'runner_failed', message: 'The run could not be queued.' },
    });
    expect(runChanges.notified).toEqual([stored!.id]);
  });

  describe('with an Idempotency-Key', () => {
    it('answers the same run for a retry with the same body, queued once', async () => {
      const { start, runQueue, runRepository } = await setUp();
      const first = await start({ input: { a: 1, b: 2 } }, { key: 'k-1' });
      const retry = await start({ input: { b: 2, a: 1 } }, { key: 'k-1' });
      expect(retry).toMatchObject({ replayed: true, run: { id: first.run.id } });
      expect(runRepository.all()).toHaveLength(1);
      expect(runQueue.enqueued).toHaveLength(1);
    });

    it('refuses the key with another body, or for another agent', async () => {
      const { start, givenAgent } = await setUp();
      await start({ input: 1 }, { key: 'k-2' });
      expect((await failure(start({ input: 2 }, { key: 'k-2' }))).code).toBe('idempotency_key_reused');
      const other = await givenAgent({ name: 'Other' });
      expect((await failure(start({ input: 1 }, { key: 'k-2', agentId: other.id }))).code).toBe(
        'idempotency_key_reused',
      );
    });

    it('keeps keys of session creates and of runs apart, and gives a key up when the create fails', async () => {
      const { start, createSession, owner, project, givenAgent, runRepository } = await setUp();
      await createSession.execute({
        caller: owner,
        projectId: project.id,
        request: {},
        idempotencyKey: 'shared',
      });
      expect((await start({}, { key: 'shared' })).replayed).toBe(false);
      const off = await givenAgent({ name: 'Off', active: false });
      expect((await failure(start({}, { key: 'k-3', agentId: off.id }))).code).toBe('agent_inactive');
      const { run, replayed } = await start({}, { key: 'k-3' });
      expect(replayed).toBe(false);
      expect(await runRepository.findById(run.id)).not.toBeNull();
    });
  });
});

import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { findSession } from '../sessions/findSession.ts';
import type { IdempotencyStore } from '../sessions/IdempotencyStore.ts';
import { SessionEndedError } from '../sessions/SessionEndedError.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import { checkScript, DEFAULT_TIMEOUT_SEC } from '../sessions/sessionRules.ts';
import type { Clock } from '../shared/Clock.ts';
import { Checks } from '../shared/checks.ts';
import { ConflictError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { queueNewRun } from './queueNewRun.ts';
import { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunQueue } from './RunQueue.ts';
import type { RunRepository } from './RunRepository.ts';
import { withRunIdempotency } from './runIdempotency.ts';
import { checkRunRequest, runInputOf } from './runInputRules.ts';

/** The body of an ad-hoc run on a live session (http-api.md §11), every field optional. */
export interface SessionRunRequest {
  /** The script; the session's own `script` when absent. */
  readonly script?: string | undefined;
  /** Any JSON value, at most `RUN_INPUT_MAX_BYTES` as JSON; null when absent. */
  readonly input?: unknown;
  /** Merged over the session's `env`. */
  readonly env?: Record<string, string> | undefined;
  /** The run's deadline, 1..21600 s; `DEFAULT_TIMEOUT_SEC` when absent. */
  readonly timeoutSec?: number | undefined;
}

export interface StartSessionRunDeps {
  projects: ProjectRepository;
  audit: AuditTrail;
  sessions: SessionRepository;
  runs: RunRepository;
  runQueue: RunQueue;
  runChanges: RunChanges;
  idempotency: IdempotencyStore;
  ids: IdGenerator;
  clock: Clock;
  /** Runs an account may have QUEUED (`RUN_MAX_QUEUED_PER_OWNER`); default `RUN_MAX_QUEUED_PER_OWNER_DEFAULT`. */
  maxQueuedPerOwner?: number | undefined;
}

export interface StartSessionRunInput {
  caller: Caller;
  projectId: string;
  sessionId: string;
  request: SessionRunRequest;
  idempotencyKey?: string | undefined;
}

/**
 * Queues a run of a script against a live session of the project (http-api.md §11); the session
 * stays open afterwards. An ended session is refused with `session_ended`, a blank script with
 * `script_empty`, an archived project with `project_archived`. `env` is the session's `env` merged
 * with the request's. With an `Idempotency-Key`, a retry with the same body gets the same run.
 */
export class StartSessionRun {
  private readonly deps: StartSessionRunDeps;

  constructor(deps: StartSessionRunDeps) {
    this.deps = deps;
  }

  async execute(input: StartSessionRunInput): Promise<{ run: Run; replayed: boolean }> {
    const runId = this.deps.ids.next();
    const key = input.idempotencyKey;
    if (key === undefined) return { run: await this.create(input, runId), replayed: false };
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'developer');
    const body = { sessionId: input.sessionId, request: input.request };
    return withRunIdempotency(this.deps, { project, key, body, runId }, () => this.create(input, runId));
  }

  private async create(input: StartSessionRunInput, runId: string): Promise<Run> {
    const { request } = input;
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    if (!session.isActive) throw new SessionEndedError('The session has ended; runs need a live session.');
    const script = request.script ?? session.script;
    const timeoutSec = request.timeoutSec ?? DEFAULT_TIMEOUT_SEC;
    const env = { ...session.env, ...(request.env ?? {}) };
    const runInput = request.input === undefined ? null : request.input;
    const checks = checkRunRequest(new Checks(), { input: runInput, env, timeoutSec });
    if (request.script !== undefined) checkScript(checks, request.script);
    checks.throwIfAny();
    if (script.trim() === '')
      throw new ConflictError(
        'script_empty',
        'There is no script to run: send one, or give the session one.',
      );
    const run = Run.create({
      id: runId,
      projectId: project.id,
      ownerId: project.ownerId,
      agentId: null,
      sessionId: session.id,
      script,
      input: runInputOf(runInput),
      env,
      timeoutSec,
      sessionRequest: null,
      now: this.deps.clock.now(),
    });
    return queueNewRun(this.deps, run, input.caller);
  }
}

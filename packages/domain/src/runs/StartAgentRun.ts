import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { AgentRepository } from '../agents/AgentRepository.ts';
import { findAgent } from '../agents/findAgent.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { IdempotencyStore } from '../sessions/IdempotencyStore.ts';
import type { SessionRequest } from '../sessions/resolveSessionSettings.ts';
import { TIMEOUT_MAX_SEC } from '../sessions/sessionRules.ts';
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
import { RUN_SESSION_MIN_TIMEOUT_SEC } from './runRules.ts';

/** The body of an agent run (http-api.md §11), every field optional. */
export interface AgentRunRequest {
  /** Any JSON value, at most `RUN_INPUT_MAX_BYTES` as JSON; null when absent. */
  readonly input?: unknown;
  /** Merged over the agent's `envVars`. */
  readonly env?: Record<string, string> | undefined;
  /** The run's deadline, 1..21600 s; the agent's `timeoutSec` when absent. */
  readonly timeoutSec?: number | undefined;
  /** One of the provider's regions; the agent's when absent. */
  readonly region?: string | undefined;
}

export interface StartAgentRunDeps {
  projects: ProjectRepository;
  audit: AuditTrail;
  agents: AgentRepository;
  runs: RunRepository;
  runQueue: RunQueue;
  runChanges: RunChanges;
  provider: BrowserProvider;
  idempotency: IdempotencyStore;
  ids: IdGenerator;
  clock: Clock;
  /** Runs an account may have QUEUED (`RUN_MAX_QUEUED_PER_OWNER`); default `RUN_MAX_QUEUED_PER_OWNER_DEFAULT`. */
  maxQueuedPerOwner?: number | undefined;
}

export interface StartAgentRunInput {
  caller: Caller;
  projectId: string;
  agentId: string;
  request: AgentRunRequest;
  idempotencyKey?: string | undefined;
}

/** The seconds a run's session outlives its deadline, so the script is killed before its browser goes. */
const SESSION_MARGIN_SEC = 30;

/**
 * Queues a run of an agent's script (http-api.md §11). The run creates its own session when a
 * worker takes it, with the agent's settings as they are now (region, timeout, context, extension,
 * provider project), and releases it when it ends; `env` is the agent's `envVars` merged with the
 * request's. Refuses an archived project (`project_archived`), an inactive agent
 * (`agent_inactive`) and an agent without a script (`script_empty`). With an `Idempotency-Key`, a
 * retry with the same body gets the same run (`replayed`).
 */
export class StartAgentRun {
  private readonly deps: StartAgentRunDeps;

  constructor(deps: StartAgentRunDeps) {
    this.deps = deps;
  }

  async execute(input: StartAgentRunInput): Promise<{ run: Run; replayed: boolean }> {
    const runId = this.deps.ids.next();
    const key = input.idempotencyKey;
    if (key === undefined) return { run: await this.create(input, runId), replayed: false };
    // A retry is answered from its key first, as a session create's is.
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'developer');
    const body = { agentId: input.agentId, request: input.request };
    return withRunIdempotency(this.deps, { project, key, body, runId }, () => this.create(input, runId));
  }

  private async create(input: StartAgentRunInput, runId: string): Promise<Run> {
    const { request } = input;
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    const agent = await findAgent(this.deps.agents, project.id, input.agentId);
    if (!agent.active)
      throw new ConflictError('agent_inactive', 'The agent is inactive; activate it to run it.');
    if (agent.script.trim() === '')
      throw new ConflictError('script_empty', 'The agent has no script to run; give it one first.');
    const timeoutSec = request.timeoutSec ?? agent.timeoutSec;
    const region = request.region ?? agent.region;
    const env = { ...agent.envVars, ...(request.env ?? {}) };
    const runInput = request.input === undefined ? null : request.input;
    const { regions } = this.deps.provider;
    checkRunRequest(new Checks(), { input: runInput, env, timeoutSec })
      .require(regions.includes(region), 'region', `must be one of ${regions.join(', ')}`)
      .throwIfAny();
    const sessionRequest: SessionRequest = {
      agentId: agent.id,
      region,
      timeoutSec: Math.min(
        Math.max(timeoutSec + SESSION_MARGIN_SEC, RUN_SESSION_MIN_TIMEOUT_SEC),
        TIMEOUT_MAX_SEC,
      ),
      contextId: agent.contextId,
      extensionId: agent.extensionId,
      ...(agent.providerProjectId === null ? {} : { projectId: agent.providerProjectId }),
    };
    const run = Run.create({
      id: runId,
      projectId: project.id,
      ownerId: project.ownerId,
      agentId: agent.id,
      sessionId: null,
      script: agent.script,
      input: runInputOf(runInput),
      env,
      timeoutSec,
      sessionRequest,
      now: this.deps.clock.now(),
    });
    return queueNewRun(this.deps, run, input.caller);
  }
}

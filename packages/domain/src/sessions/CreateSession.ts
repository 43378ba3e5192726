import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { Agent } from '../agents/Agent.ts';
import type { AgentRepository } from '../agents/AgentRepository.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ExtensionRepository } from '../extensions/ExtensionRepository.ts';
import { loadSessionExtension } from '../extensions/loadSessionExtension.ts';
import type { Project } from '../projects/Project.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { ConflictError, NotFoundError, UnsupportedOptionError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { stableStringify } from '../shared/stableStringify.ts';
import { BrowserSession } from './BrowserSession.ts';
import type { IdempotencyRecord, IdempotencyStore } from './IdempotencyStore.ts';
import { resolveSessionSettings, type SessionRequest } from './resolveSessionSettings.ts';
import type { SessionRepository } from './SessionRepository.ts';
import type { SessionExtension } from './sessionOptions.ts';

/** How long an `Idempotency-Key` is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claimed key may stay unanswered before a retry may take it over: the request holding
 * it died (a crash, a restart) without answering or giving it up. Far longer than any create takes
 * (the HTTP request is cut off at 30 s, provider calls at 10 s).
 */
export const IDEMPOTENCY_LEASE_MS = 2 * 60 * 1000;

export interface CreateSessionDeps {
  projects: ProjectRepository;
  agents: AgentRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  idempotency: IdempotencyStore;
  /** Records the create in the audit log, in the transaction that stores the session. */
  audit: AuditTrail;
  /** The projects' uploaded extensions, which `extensionId` names; absent: there are none. */
  extensions?: ExtensionRepository | undefined;
  ids: IdGenerator;
  clock: Clock;
  logger?: Logger;
}

export interface CreateSessionInput {
  caller: Caller;
  projectId: string;
  request: SessionRequest;
  idempotencyKey?: string | undefined;
}

/** A retry's own claim on its key: what it would store, were the key free. */
interface Claim {
  scope: string;
  key: string;
  fingerprint: string;
  sessionId: string;
  now: Date;
  expiresAt: Date;
}

/**
 * Starts a browser at the provider and tracks it. Nothing is stored when the provider refuses; a
 * browser the provider started is released again when it cannot be stored, so none is orphaned.
 */
export class CreateSession {
  private readonly deps: CreateSessionDeps;

  constructor(deps: CreateSessionDeps) {
    this.deps = deps;
  }

  async execute(input: CreateSessionInput): Promise<{ session: BrowserSession; replayed: boolean }> {
    const key = input.idempotencyKey;
    const sessionId = this.deps.ids.next();
    if (key === undefined) return { session: await this.createNew(input, sessionId), replayed: false };
    // A retry is answered from its key before anything else is checked, so it gets the first
    // response even if the project was archived or the agent deactivated since.
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'developer');
    const scope = `${project.ownerId}:${project.id}`;
    const fingerprint = stableStringify(input.request);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    const existing = await this.deps.idempotency.reserve(scope, key, fingerprint, sessionId, now, expiresAt);
    if (existing) {
      const claim: Claim = { scope, key, fingerprint, sessionId, now, expiresAt };
      const replayed = await this.replay(project.id, existing, claim);
      if (replayed) return { session: replayed, replayed: true };
      // The claim was abandoned and is ours now: create as if it had been free.
    }
    let session: BrowserSession;
    try {
      session = await this.createNew(input, sessionId);
    } catch (error) {
      await this.deps.idempotency.release(scope, key, sessionId).catch(() => {});
      throw error;
    }
    // The browser exists now: a key that fails to record its answer stays claimed, and a retry
    // finds the session by the id chosen up front (see `replay`) rather than starting a second one.
    await this.deps.idempotency.complete(scope, key, session.id, session.answer).catch((error: unknown) => {
      (this.deps.logger ?? silentLogger).error(
        { sessionId: session.id, error: String(error) },
        'could not record the session of an Idempotency-Key',
      );
    });
    return { session, replayed: false };
  }

  private async createNew(input: CreateSessionInput, sessionId: string): Promise<BrowserSession> {
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    const agent = await this.agentFor(project.id, input.request.agentId);
    const now = this.deps.clock.now();
    const settings = resolveSessionSettings(input.request, agent, this.deps.provider, now);
    const { accepts } = this.deps.provider.capabilities;
    if (settings.extensionId !== null && accepts?.extensions === false)
      throw new UnsupportedOptionError(
        'extensionId',
        `The ${this.deps.provider.name} browser provider cannot load extensions; leave extensionId out.` +
          (accepts.extensionsHint ? ` ${accepts.extensionsHint}` : ''),
      );
    if (accepts?.proxies === false && settings.proxies?.some((p) => p.type !== 'none'))
      throw new UnsupportedOptionError(
        'proxies',
        `The ${this.deps.provider.name} browser provider cannot route sessions through proxies; leave proxies out.`,
      );
    const extension =
      settings.extensionId === null
        ? null
        : await loadSessionExtension(this.deps, project.id, settings.extensionId);
    return this.start(input.caller, sessionId, project, settings, extension, now);
  }

  private async agentFor(projectId: string, agentId: string | null | undefined): Promise<Agent | null> {
    if (agentId === undefined || agentId === null) return null;
    const agent = await this.deps.agents.findInProject(projectId, agentId);
    if (!agent) throw new NotFoundError('Agent', 'agent_not_found');
    if (!agent.active)
      throw new ConflictError(
        'agent_inactive',
        'The agent is inactive; activate it to start sessions with it.',
      );
    return agent;
  }

  private async start(
    caller: Caller,
    id: string,
    project: Project,
    settings: ReturnType<typeof resolveSessionSettings>,
    extension: SessionExtension | null,
    now: Date,
  ): Promise<BrowserSession> {
    const { provider } = this.deps;
    const projectId = project.id;
    const snapshot = await provider.sessions.create({
      sessionId: id,
      projectId,
      ownerId: project.ownerId,
      providerProjectId: settings.providerProjectId,
      region: settings.region,
      timeoutSec: settings.timeoutSec,
      contextId: settings.contextId,
      contextPersist: settings.contextPersist,
      extensionId: settings.extensionId,
      extension,
      proxies: settings.proxies,
      keepAlive: settings.keepAlive,
      viewport: settings.viewport,
      record: settings.record,
    });
    // What only the provider takes (a profile's save-back, recording) is not a stored session field.
    const { providerProjectId: _, contextPersist: __, record: ___, ...sessionSettings } = settings;
    const session = BrowserSession.create({
      id,
      projectId,
      provider: provider.name,
      settings: sessionSettings,
      snapshot,
      now,
    });
    try {
      const change = { projectId, action: 'session.create', target: { type: 'session', id } } as const;
      await this.deps.audit.record(caller, change, () => this.deps.sessions.add(session));
    } catch (error) {
      await provider.sessions
        .release(snapshot.providerSessionId, snapshot.providerProjectId)
        .catch((releaseError: unknown) => {
          (this.deps.logger ?? silentLogger).error(
            { providerSessionId: snapshot.providerSessionId, error: String(releaseError) },
            'could not release a browser whose session failed to store',
          );
        });
      throw error;
    }
    return session;
  }

  /**
   * The answer for a retry: the first response when the key's session exists (also when recording
   * that response failed), 409 while the first request still runs, and null when the claim was
   * abandoned — unanswered past `IDEMPOTENCY_LEASE_MS` — and this retry took it over.
   */
  private async replay(
    projectId: string,
    record: IdempotencyRecord,
    claim: Claim,
  ): Promise<BrowserSession | null> {
    if (record.fingerprint !== claim.fingerprint) {
      throw new ConflictError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request body.',
      );
    }
    const session = record.sessionId
      ? await this.deps.sessions.findInProject(projectId, record.sessionId)
      : null;
    // The first response: the stored session with what changed since set back (status, times…).
    if (session) return record.answer ? session.asAnswered(record.answer) : session;
    const abandoned =
      record.answer === null && claim.now.getTime() - record.claimedAt.getTime() >= IDEMPOTENCY_LEASE_MS;
    if (
      abandoned &&
      (await this.deps.idempotency.takeOver(
        claim.scope,
        claim.key,
        record.claimedAt,
        claim.sessionId,
        claim.now,
        claim.expiresAt,
      ))
    ) {
      return null;
    }
    throw new ConflictError(
      'idempotency_key_reused',
      'A request with this Idempotency-Key is still in progress; retry shortly.',
    );
  }
}

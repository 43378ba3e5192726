import type {
  BrowserdeckOrm,
  HttpAppDeps,
  LocalIdentityStore,
  MetricsRegistry,
  SecretBox,
} from '@browserdeck/adapters';
import type {
  AgentRepository,
  ArchiveProject,
  Authenticate,
  BrowserProvider,
  Clock,
  CreateAgent,
  CreateProject,
  CreateSession,
  DeleteAgent,
  DeleteProject,
  GetAgent,
  GetCurrentUser,
  GetProject,
  GetSession,
  GetSessionLogs,
  GetSessionStats,
  IdempotencyStore,
  IdentityProvider,
  IdGenerator,
  ListAgents,
  ListProjects,
  ListSessions,
  ProjectRepository,
  RateLimiter,
  ReconcileSessions,
  RefreshSession,
  ReleaseSession,
  SessionRepository,
  SignIn,
  SignOut,
  SignUp,
  SyncUser,
  UpdateAgent,
  UpdateProject,
  UserRepository,
} from '@browserdeck/domain';
import type { ServiceIdentifier } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/** A typed, process-wide token: `Symbol.for` so two copies of this module agree. */
function token<T>(name: string): ServiceIdentifier<T> {
  return Symbol.for(`@browserdeck/${name}`);
}

/** Every service the server composes, by role. */
export const TOKENS = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  Clock: token<Clock>('Clock'),
  Metrics: token<MetricsRegistry>('Metrics'),
  IdGenerator: token<IdGenerator>('IdGenerator'),
  RateLimiter: token<RateLimiter>('RateLimiter'),
  Orm: token<BrowserdeckOrm>('Orm'),
  UserRepository: token<UserRepository>('UserRepository'),
  LocalIdentityStore: token<LocalIdentityStore>('LocalIdentityStore'),
  ProjectRepository: token<ProjectRepository>('ProjectRepository'),
  IdentityProvider: token<IdentityProvider>('IdentityProvider'),
  SignUp: token<SignUp>('SignUp'),
  SignIn: token<SignIn>('SignIn'),
  RefreshSession: token<RefreshSession>('RefreshSession'),
  SignOut: token<SignOut>('SignOut'),
  Authenticate: token<Authenticate>('Authenticate'),
  GetCurrentUser: token<GetCurrentUser>('GetCurrentUser'),
  SyncUser: token<SyncUser>('SyncUser'),
  CreateProject: token<CreateProject>('CreateProject'),
  ListProjects: token<ListProjects>('ListProjects'),
  GetProject: token<GetProject>('GetProject'),
  UpdateProject: token<UpdateProject>('UpdateProject'),
  ArchiveProject: token<ArchiveProject>('ArchiveProject'),
  DeleteProject: token<DeleteProject>('DeleteProject'),
  SecretBox: token<SecretBox>('SecretBox'),
  SessionRepository: token<SessionRepository>('SessionRepository'),
  AgentRepository: token<AgentRepository>('AgentRepository'),
  IdempotencyStore: token<IdempotencyStore>('IdempotencyStore'),
  /** The provider itself (the local one also serves WebSocket upgrades and must be closed). */
  ProviderBackend: token<BrowserProvider>('ProviderBackend'),
  /** The provider as use cases see it: the backend, measured. */
  BrowserProvider: token<BrowserProvider>('BrowserProvider'),
  CreateSession: token<CreateSession>('CreateSession'),
  ListSessions: token<ListSessions>('ListSessions'),
  GetSession: token<GetSession>('GetSession'),
  ReleaseSession: token<ReleaseSession>('ReleaseSession'),
  GetSessionLogs: token<GetSessionLogs>('GetSessionLogs'),
  GetSessionStats: token<GetSessionStats>('GetSessionStats'),
  ReconcileSessions: token<ReconcileSessions>('ReconcileSessions'),
  CreateAgent: token<CreateAgent>('CreateAgent'),
  ListAgents: token<ListAgents>('ListAgents'),
  GetAgent: token<GetAgent>('GetAgent'),
  UpdateAgent: token<UpdateAgent>('UpdateAgent'),
  DeleteAgent: token<DeleteAgent>('DeleteAgent'),
  /** What both apps are built from (one `MetricsRegistry`, one `metricsEndpoint`). */
  HttpAppDeps: token<HttpAppDeps>('HttpAppDeps'),
  HttpApp: token<Koa>('HttpApp'),
  /** Serves only `/metrics`; listened on when `METRICS_LISTEN` is set. */
  MetricsApp: token<Koa>('MetricsApp'),
} as const;

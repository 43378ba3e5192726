import {
  ArchiveProject,
  Authenticate,
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
  ListAgents,
  ListProjects,
  ListSessions,
  ReconcileSessions,
  RefreshSession,
  ReleaseSession,
  SignIn,
  SignOut,
  SignUp,
  SyncUser,
  UpdateAgent,
  UpdateProject,
} from '@browserdeck/domain';
import { ContainerModule } from 'inversify';
import { TOKENS as T } from '../tokens.ts';

/** The domain use cases, each built from its ports with a plain constructor. */
export const useCasesModule = new ContainerModule(({ bind }) => {
  bind(T.SignUp).toResolvedValue(
    (identity, users, rateLimiter, clock, config) =>
      new SignUp({ identity, users, rateLimiter, clock, rateLimits: config.authRateLimits }),
    [T.IdentityProvider, T.UserRepository, T.RateLimiter, T.Clock, T.Config],
  );
  bind(T.SignIn).toResolvedValue(
    (identity, rateLimiter, config) =>
      new SignIn({ identity, rateLimiter, rateLimits: config.authRateLimits }),
    [T.IdentityProvider, T.RateLimiter, T.Config],
  );
  bind(T.RefreshSession).toResolvedValue(
    (identity) => new RefreshSession({ identity }),
    [T.IdentityProvider],
  );
  bind(T.SignOut).toResolvedValue((identity) => new SignOut({ identity }), [T.IdentityProvider]);
  bind(T.Authenticate).toResolvedValue((identity) => new Authenticate({ identity }), [T.IdentityProvider]);
  bind(T.GetCurrentUser).toResolvedValue(
    (users, clock) => new GetCurrentUser({ users, clock }),
    [T.UserRepository, T.Clock],
  );
  bind(T.SyncUser).toResolvedValue(
    (users, projects, ids, clock) => new SyncUser({ users, projects, ids, clock }),
    [T.UserRepository, T.ProjectRepository, T.IdGenerator, T.Clock],
  );
  bind(T.CreateProject).toResolvedValue(
    (projects, ids, clock) => new CreateProject({ projects, ids, clock }),
    [T.ProjectRepository, T.IdGenerator, T.Clock],
  );
  bind(T.ListProjects).toResolvedValue((projects) => new ListProjects({ projects }), [T.ProjectRepository]);
  bind(T.GetProject).toResolvedValue((projects) => new GetProject({ projects }), [T.ProjectRepository]);
  bind(T.UpdateProject).toResolvedValue(
    (projects, clock) => new UpdateProject({ projects, clock }),
    [T.ProjectRepository, T.Clock],
  );
  bind(T.ArchiveProject).toResolvedValue(
    (projects, clock) => new ArchiveProject({ projects, clock }),
    [T.ProjectRepository, T.Clock],
  );
  bind(T.DeleteProject).toResolvedValue(
    (projects, sessions, provider, logger) => new DeleteProject({ projects, sessions, provider, logger }),
    [T.ProjectRepository, T.SessionRepository, T.BrowserProvider, T.Logger],
  );
});

/** The session and agent use cases. */
export const sessionUseCasesModule = new ContainerModule(({ bind }) => {
  const common = [T.ProjectRepository, T.SessionRepository, T.BrowserProvider, T.Clock] as const;
  bind(T.CreateSession).toResolvedValue(
    (projects, agents, sessions, provider, idempotency, ids, clock, logger) =>
      new CreateSession({ projects, agents, sessions, provider, idempotency, ids, clock, logger }),
    [
      T.ProjectRepository,
      T.AgentRepository,
      T.SessionRepository,
      T.BrowserProvider,
      T.IdempotencyStore,
      T.IdGenerator,
      T.Clock,
      T.Logger,
    ],
  );
  bind(T.ListSessions).toResolvedValue(
    (projects, sessions) => new ListSessions({ projects, sessions }),
    [T.ProjectRepository, T.SessionRepository],
  );
  bind(T.GetSession).toResolvedValue(
    (projects, sessions, provider, clock, logger) =>
      new GetSession({ projects, sessions, provider, clock, logger }),
    [...common, T.Logger],
  );
  bind(T.ReleaseSession).toResolvedValue(
    (projects, sessions, provider, clock) => new ReleaseSession({ projects, sessions, provider, clock }),
    [...common],
  );
  bind(T.GetSessionLogs).toResolvedValue(
    (projects, sessions, provider, secrets) =>
      new GetSessionLogs({ projects, sessions, provider, cursorSigner: secrets.signer('log-cursor') }),
    [T.ProjectRepository, T.SessionRepository, T.BrowserProvider, T.SecretBox],
  );
  bind(T.GetSessionStats).toResolvedValue(
    (projects, sessions, clock) => new GetSessionStats({ projects, sessions, clock }),
    [T.ProjectRepository, T.SessionRepository, T.Clock],
  );
  bind(T.ReconcileSessions).toResolvedValue(
    (sessions, provider, clock, logger) => new ReconcileSessions({ sessions, provider, clock, logger }),
    [T.SessionRepository, T.BrowserProvider, T.Clock, T.Logger],
  );
  bind(T.CreateAgent).toResolvedValue(
    (projects, agents, provider, ids, clock) => new CreateAgent({ projects, agents, provider, ids, clock }),
    [T.ProjectRepository, T.AgentRepository, T.BrowserProvider, T.IdGenerator, T.Clock],
  );
  bind(T.ListAgents).toResolvedValue(
    (projects, agents) => new ListAgents({ projects, agents }),
    [T.ProjectRepository, T.AgentRepository],
  );
  bind(T.GetAgent).toResolvedValue(
    (projects, agents) => new GetAgent({ projects, agents }),
    [T.ProjectRepository, T.AgentRepository],
  );
  bind(T.UpdateAgent).toResolvedValue(
    (projects, agents, provider, clock) => new UpdateAgent({ projects, agents, provider, clock }),
    [T.ProjectRepository, T.AgentRepository, T.BrowserProvider, T.Clock],
  );
  bind(T.DeleteAgent).toResolvedValue(
    (projects, agents) => new DeleteAgent({ projects, agents }),
    [T.ProjectRepository, T.AgentRepository],
  );
});

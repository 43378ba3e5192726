import {
  ArchiveProject,
  Authenticate,
  CreateProject,
  DeleteProject,
  GetCurrentUser,
  GetProject,
  ListProjects,
  RefreshSession,
  SignIn,
  SignOut,
  SignUp,
  SyncUser,
  UpdateProject,
} from '@browserdeck/domain';
import { ContainerModule } from 'inversify';
import { TOKENS as T } from '../tokens.ts';

/** The domain use cases, each built from its ports with a plain constructor. */
export const useCasesModule = new ContainerModule(({ bind }) => {
  bind(T.SignUp).toResolvedValue(
    (identity, users, rateLimiter, clock) => new SignUp({ identity, users, rateLimiter, clock }),
    [T.IdentityProvider, T.UserRepository, T.RateLimiter, T.Clock],
  );
  bind(T.SignIn).toResolvedValue(
    (identity, rateLimiter) => new SignIn({ identity, rateLimiter }),
    [T.IdentityProvider, T.RateLimiter],
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
  bind(T.DeleteProject).toResolvedValue((projects) => new DeleteProject({ projects }), [T.ProjectRepository]);
});

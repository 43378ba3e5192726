import { checkDatabase, createHttpApp, toDatabaseError } from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** The Koa app, wired to the use cases. */
export function httpModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.HttpApp).toResolvedValue(
      (
        orm,
        logger,
        signUp,
        signIn,
        refreshSession,
        signOut,
        authenticate,
        getCurrentUser,
        syncUser,
        ...projects
      ) => {
        const [createProject, listProjects, getProject, updateProject, archiveProject, deleteProject] =
          projects;
        return createHttpApp({
          signUp,
          signIn,
          refreshSession,
          signOut,
          authenticate,
          getCurrentUser,
          syncUser,
          createProject,
          listProjects,
          getProject,
          updateProject,
          archiveProject,
          deleteProject,
          checkReadiness: () => checkDatabase(orm),
          translateError: toDatabaseError,
          logger,
          corsOrigins: config.CORS_ORIGINS,
        });
      },
      [
        T.Orm,
        T.Logger,
        T.SignUp,
        T.SignIn,
        T.RefreshSession,
        T.SignOut,
        T.Authenticate,
        T.GetCurrentUser,
        T.SyncUser,
        T.CreateProject,
        T.ListProjects,
        T.GetProject,
        T.UpdateProject,
        T.ArchiveProject,
        T.DeleteProject,
      ],
    );
  });
}

import {
  checkDatabase,
  countActiveSessions,
  createHttpApp,
  createMetricsApp,
  type HttpAppDeps,
  toDatabaseError,
} from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/**
 * The Koa apps, wired to the use cases from one set of deps: the API app, and with `METRICS_LISTEN`
 * the app that serves `/metrics` on its own address (the API app then answers it 404).
 */
export function httpModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.HttpApp).toDynamicValue(async ({ getAsync }) => createHttpApp(await getAsync(T.HttpAppDeps)));
    bind(T.MetricsApp).toDynamicValue(async ({ getAsync }) =>
      createMetricsApp({ ...(await getAsync(T.HttpAppDeps)), metrics: await getAsync(T.Metrics) }),
    );
    bind(T.HttpAppDeps).toDynamicValue(async ({ getAsync }) => {
      const orm = await getAsync(T.Orm);
      const provider = await getAsync(T.BrowserProvider);
      const metrics = await getAsync(T.Metrics);
      metrics.gauge('browserdeck_active_sessions', 'Sessions PENDING or RUNNING, in every project.', () =>
        countActiveSessions(orm),
      );
      return {
        signUp: await getAsync(T.SignUp),
        signIn: await getAsync(T.SignIn),
        refreshSession: await getAsync(T.RefreshSession),
        signOut: await getAsync(T.SignOut),
        authenticate: await getAsync(T.Authenticate),
        getCurrentUser: await getAsync(T.GetCurrentUser),
        syncUser: await getAsync(T.SyncUser),
        createProject: await getAsync(T.CreateProject),
        listProjects: await getAsync(T.ListProjects),
        getProject: await getAsync(T.GetProject),
        updateProject: await getAsync(T.UpdateProject),
        archiveProject: await getAsync(T.ArchiveProject),
        deleteProject: await getAsync(T.DeleteProject),
        createSession: await getAsync(T.CreateSession),
        listSessions: await getAsync(T.ListSessions),
        getSession: await getAsync(T.GetSession),
        releaseSession: await getAsync(T.ReleaseSession),
        getSessionLogs: await getAsync(T.GetSessionLogs),
        getSessionStats: await getAsync(T.GetSessionStats),
        createAgent: await getAsync(T.CreateAgent),
        listAgents: await getAsync(T.ListAgents),
        getAgent: await getAsync(T.GetAgent),
        updateAgent: await getAsync(T.UpdateAgent),
        deleteAgent: await getAsync(T.DeleteAgent),
        providerName: provider.name,
        checkReadiness: () => checkDatabase(orm),
        translateError: toDatabaseError,
        logger: await getAsync(T.Logger),
        metrics,
        metricsEndpoint: { token: config.METRICS_TOKEN, separate: config.METRICS_LISTEN !== undefined },
        corsOrigins: config.CORS_ORIGINS,
        requestTimeoutMs: config.REQUEST_TIMEOUT_SEC * 1000,
      } satisfies HttpAppDeps;
    });
  });
}

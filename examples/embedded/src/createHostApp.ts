import {
  Argon2PasswordHasher,
  type BrowserdeckOrm,
  checkDatabase,
  createHttpApp,
  JwtTokenService,
  LocalIdentityProvider,
  loadOrCreateJwtKeys,
  type MetricsEndpointOptions,
  MikroOrmLocalIdentityStore,
  MikroOrmProjectRepository,
  MikroOrmUserRepository,
  toDatabaseError,
  UuidV7Generator,
} from '@browserdeck/adapters';
import {
  ArchiveProject,
  Authenticate,
  CreateProject,
  DeleteProject,
  FixedWindowRateLimiter,
  GetCurrentUser,
  GetProject,
  ListProjects,
  RefreshSession,
  SignIn,
  SignOut,
  SignUp,
  SyncUser,
  SystemClock,
  UpdateProject,
} from '@browserdeck/domain';
import Koa from 'koa';
import type { Logger } from 'pino';

/** The prefix under which the host serves Browserdeck's API. */
export const BROWSERDECK_PREFIX = '/browserdeck';

/**
 * A host application that embeds Browserdeck without a DI container: it builds the use cases with
 * plain constructors, serves Browserdeck's HTTP API under `/browserdeck`, keeps its own routes, and
 * calls a use case in-process (`GET /my/projects/count` counts the projects of a user it names).
 * Sessions are left out here; they compose the same way with a BrowserProvider.
 */
export async function createHostApp(options: {
  orm: BrowserdeckOrm;
  dataDir: string;
  logger: Logger;
  /** Who may read `/browserdeck/metrics` (e.g. `{ token }`); open when absent. */
  metricsEndpoint?: MetricsEndpointOptions;
}): Promise<Koa> {
  const { orm } = options;
  const clock = new SystemClock();
  const ids = new UuidV7Generator();
  const users = new MikroOrmUserRepository({ orm });
  const projects = new MikroOrmProjectRepository({ orm });
  const { keys } = await loadOrCreateJwtKeys({ dataDir: options.dataDir });
  const identity = new LocalIdentityProvider({
    store: new MikroOrmLocalIdentityStore({ orm }),
    clock,
    ids,
    tokens: new JwtTokenService({ keys }),
    passwords: new Argon2PasswordHasher(),
  });
  const rateLimiter = new FixedWindowRateLimiter({ clock });
  const listProjects = new ListProjects({ projects });
  const unavailable = {
    execute: async () => Promise.reject(new Error('sessions are not mounted in this host')),
  };

  const browserdeck = createHttpApp({
    signUp: new SignUp({ identity, users, rateLimiter, clock }),
    signIn: new SignIn({ identity, rateLimiter }),
    refreshSession: new RefreshSession({ identity }),
    signOut: new SignOut({ identity }),
    authenticate: new Authenticate({ identity }),
    getCurrentUser: new GetCurrentUser({ users, clock }),
    syncUser: new SyncUser({ users, projects, ids, clock }),
    createProject: new CreateProject({ projects, ids, clock }),
    listProjects,
    getProject: new GetProject({ projects }),
    updateProject: new UpdateProject({ projects, clock }),
    archiveProject: new ArchiveProject({ projects, clock }),
    deleteProject: new DeleteProject({ projects }),
    createSession: unavailable,
    listSessions: unavailable,
    getSession: unavailable,
    releaseSession: unavailable,
    getSessionLogs: unavailable,
    getSessionStats: unavailable,
    createAgent: unavailable,
    listAgents: unavailable,
    getAgent: unavailable,
    updateAgent: unavailable,
    deleteAgent: unavailable,
    providerName: 'none',
    checkReadiness: () => checkDatabase(orm),
    translateError: toDatabaseError,
    logger: options.logger,
    metricsEndpoint: options.metricsEndpoint,
  });
  const handleBrowserdeck = browserdeck.callback();

  const host = new Koa();
  host.use(async (ctx, next) => {
    if (ctx.path === BROWSERDECK_PREFIX || ctx.path.startsWith(`${BROWSERDECK_PREFIX}/`)) {
      // Hand the raw request to Browserdeck with the prefix stripped; it writes the response itself.
      ctx.respond = false;
      ctx.req.url = ctx.req.url?.slice(BROWSERDECK_PREFIX.length) || '/';
      await handleBrowserdeck(ctx.req, ctx.res);
      return;
    }
    await next();
  });
  host.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/my/projects/count') {
      const ownerId = String(ctx.query.user ?? '');
      const owned = ownerId ? await listProjects.execute({ ownerId }) : [];
      ctx.body = { user: ownerId, activeProjects: owned.length };
      return;
    }
    ctx.body = { host: 'an app that embeds Browserdeck', api: BROWSERDECK_PREFIX };
  });
  return host;
}

import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  ArchiveProject,
  Authenticate,
  CreateAgent,
  CreateProject,
  CreateSession,
  DeleteAgent,
  DeleteProject,
  FixedWindowRateLimiter,
  GetAgent,
  GetCurrentUser,
  GetProject,
  GetSession,
  GetSessionLogs,
  GetSessionStats,
  type IdentityProvider,
  ListAgents,
  ListProjects,
  ListSessions,
  RefreshSession,
  ReleaseSession,
  SignIn,
  SignOut,
  SignUp,
  SyncUser,
  UpdateAgent,
  UpdateProject,
} from '@browserdeck/domain';
import {
  FakeBrowserProvider,
  InMemoryAgentRepository,
  InMemoryIdempotencyStore,
  InMemoryIdentityProvider,
  InMemoryProjectRepository,
  InMemorySessionRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/domain/testing';
import type Koa from 'koa';
import { pino } from 'pino';
import { MetricsRegistry } from '../../../observability/MetricsRegistry.ts';
import { createHttpApp } from '../createHttpApp.ts';
import type { HttpAppDeps } from '../HttpAppDeps.ts';

/** What an identity factory of createTestApp is given: the app's clock and ids. */
export interface TestIdentityContext {
  clock: ManualClock;
  ids: SequentialIdGenerator;
}

/** Options of createTestApp. */
export interface TestAppOptions<I extends IdentityProvider = InMemoryIdentityProvider> {
  /**
   * Builds the identity provider (the domain's in-memory double unless given), e.g. the local
   * provider or `SupabaseIdentityProvider` on a fake GoTrue, sharing the app's clock.
   */
  identity?: (context: TestIdentityContext) => I | Promise<I>;
  /** The app's clock; default a ManualClock at 2026-01-01T00:00:00Z. */
  clock?: ManualClock;
  /** Replaces any dependency of the app (a use case, `checkReadiness`, `translateError`, …). */
  overrides?: Partial<HttpAppDeps>;
  /** The fake provider's name, also the `{provider}` path segment. Default `browserbase`. */
  providerName?: string;
  /** The fake provider's regions, the first being the default. Default: Browserbase's four. */
  regions?: readonly string[];
}

/** What `request` sends: `json` becomes a JSON body, `token` a bearer header. */
export interface TestRequestInit extends RequestInit {
  json?: unknown;
  token?: string;
}

/** A signed-in test user. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/** A running app on 127.0.0.1 wired with the domain's in-memory doubles. */
export interface TestApp<I extends IdentityProvider = InMemoryIdentityProvider> {
  app: Koa;
  baseUrl: string;
  deps: HttpAppDeps;
  clock: ManualClock;
  identity: I;
  users: InMemoryUserRepository;
  projects: InMemoryProjectRepository;
  sessions: InMemorySessionRepository;
  agents: InMemoryAgentRepository;
  idempotency: InMemoryIdempotencyStore;
  /** The cloud-browser provider: records every call, can be told to fail the next one. */
  provider: FakeBrowserProvider;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Every log line as written, for "this secret never appears" checks. */
  rawLogs: string[];
  request(path: string, init?: TestRequestInit): Promise<Response>;
  /** Signs up and signs in a fresh user through the API. */
  signUpAndIn(email?: string, password?: string): Promise<TestUser>;
  close(): Promise<void>;
}

let userCounter = 0;

/** Starts the real Koa app on a random port with in-memory ports; call `close()` when done. */
export async function createTestApp(options?: TestAppOptions): Promise<TestApp>;
export async function createTestApp<I extends IdentityProvider>(
  options: TestAppOptions<I> & { identity: TestAppOptions<I>['identity'] },
): Promise<TestApp<I>>;
export async function createTestApp(
  options: TestAppOptions<IdentityProvider> = {},
): Promise<TestApp<IdentityProvider>> {
  const clock = options.clock ?? new ManualClock();
  const ids = new SequentialIdGenerator();
  const identity = options.identity
    ? await options.identity({ clock, ids })
    : new InMemoryIdentityProvider({ ids, clock });
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository();
  const sessions = new InMemorySessionRepository();
  const agents = new InMemoryAgentRepository();
  const idempotency = new InMemoryIdempotencyStore();
  const provider = new FakeBrowserProvider({
    clock,
    name: options.providerName ?? 'browserbase',
    ...(options.regions ? { regions: options.regions } : {}),
  });
  const rateLimiter = new FixedWindowRateLimiter({ clock });
  const rawLogs: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        rawLogs.push(line);
        logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const deps: HttpAppDeps = {
    signUp: new SignUp({ identity, users, rateLimiter, clock }),
    signIn: new SignIn({ identity, rateLimiter }),
    refreshSession: new RefreshSession({ identity }),
    signOut: new SignOut({ identity }),
    getCurrentUser: new GetCurrentUser({ users, clock }),
    syncUser: new SyncUser({ users, projects, ids, clock }),
    authenticate: new Authenticate({ identity }),
    createProject: new CreateProject({ projects, ids, clock }),
    listProjects: new ListProjects({ projects }),
    getProject: new GetProject({ projects }),
    updateProject: new UpdateProject({ projects, clock }),
    archiveProject: new ArchiveProject({ projects, clock }),
    deleteProject: new DeleteProject({ projects, sessions, provider }),
    createSession: new CreateSession({ projects, agents, sessions, provider, idempotency, ids, clock }),
    listSessions: new ListSessions({ projects, sessions }),
    getSession: new GetSession({ projects, sessions, provider, clock, logger }),
    releaseSession: new ReleaseSession({ projects, sessions, provider, clock }),
    getSessionLogs: new GetSessionLogs({ projects, sessions, provider }),
    getSessionStats: new GetSessionStats({ projects, sessions, clock }),
    createAgent: new CreateAgent({ projects, agents, provider, ids, clock }),
    listAgents: new ListAgents({ projects, agents }),
    getAgent: new GetAgent({ projects, agents }),
    updateAgent: new UpdateAgent({ projects, agents, provider, clock }),
    deleteAgent: new DeleteAgent({ projects, agents }),
    providerName: provider.name,
    checkReadiness: async () => {},
    logger,
    metrics: new MetricsRegistry(),
    ...options.overrides,
  };
  const app = createHttpApp(deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const request = (path: string, init: TestRequestInit = {}): Promise<Response> => {
    const { json, token, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    if (token !== undefined) headers.set('Authorization', `Bearer ${token}`);
    const body = json !== undefined ? JSON.stringify(json) : rest.body;
    return fetch(`${baseUrl}${path}`, { ...rest, headers, body });
  };

  const signUpAndIn = async (
    email = `user${++userCounter}@example.com`,
    password = 'correct horse',
  ): Promise<TestUser> => {
    const signUp = await request('/v1/auth/signup', { method: 'POST', json: { email, password } });
    if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
    const signIn = await request('/v1/auth/signin', { method: 'POST', json: { email, password } });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const grant = (await signIn.json()) as {
      access_token: string;
      refresh_token: string;
      user: { id: string };
    };
    return {
      id: grant.user.id,
      email,
      password,
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
    };
  };

  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });

  return {
    app,
    baseUrl,
    deps,
    clock,
    identity,
    users,
    projects,
    sessions,
    agents,
    idempotency,
    provider,
    logs,
    rawLogs,
    request,
    signUpAndIn,
    close,
  };
}

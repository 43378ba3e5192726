import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createBrowserdeck } from '@browserdeck/adapters';
import type {
  HttpAppDeps,
  HttpDatabaseHooks,
  HttpSettings,
  HttpUseCases,
} from '@browserdeck/adapters/http-koa';
import { createHttpApp, liveViewUpgradeHandler } from '@browserdeck/adapters/http-koa';
import type { LiveViewHub } from '@browserdeck/adapters/live-view';
import { FixedWindowRateLimiter, type IdentityProvider } from '@browserdeck/domain';
import {
  FakeBrowserProvider,
  InMemoryAgentRepository,
  InMemoryApiKeyRepository,
  InMemoryIdempotencyStore,
  InMemoryIdentityProvider,
  InMemoryProjectRepository,
  InMemorySessionRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import type Koa from 'koa';
import { pino } from 'pino';
import { FakeLiveViewHub } from './FakeLiveViewHub.ts';
import { ManualRecheckTimer } from './ManualRecheckTimer.ts';

/** Where each use case a test may replace sits in `HttpAppDeps.useCases`. */
const USE_CASE_SLOTS = {
  signUp: ['auth', 'signUp'],
  signIn: ['auth', 'signIn'],
  refreshSession: ['auth', 'refreshSession'],
  signOut: ['auth', 'signOut'],
  authenticate: ['auth', 'authenticate'],
  getCurrentUser: ['auth', 'getCurrentUser'],
  syncUser: ['auth', 'syncUser'],
  createProject: ['projects', 'create'],
  listProjects: ['projects', 'list'],
  getProject: ['projects', 'get'],
  updateProject: ['projects', 'update'],
  archiveProject: ['projects', 'archive'],
  deleteProject: ['projects', 'delete'],
  createSession: ['sessions', 'create'],
  listSessions: ['sessions', 'list'],
  getSession: ['sessions', 'get'],
  releaseSession: ['sessions', 'release'],
  getSessionLogs: ['sessions', 'logs'],
  getSessionStats: ['sessions', 'stats'],
  getSessionLiveView: ['sessions', 'liveView'],
  openLiveView: ['sessions', 'openLiveView'],
  checkLiveViewGrant: ['sessions', 'checkLiveViewGrant'],
  createAgent: ['agents', 'create'],
  listAgents: ['agents', 'list'],
  getAgent: ['agents', 'get'],
  updateAgent: ['agents', 'update'],
  deleteAgent: ['agents', 'delete'],
  createApiKey: ['apiKeys', 'create'],
  listApiKeys: ['apiKeys', 'list'],
  revokeApiKey: ['apiKeys', 'revoke'],
} as const;

type UseCaseSlots = typeof USE_CASE_SLOTS;

/**
 * What a test may replace, by name: any one use case (`createSession`, `listProjects`, …), a
 * database hook or an HTTP setting.
 */
export type TestAppOverrides = {
  [K in keyof UseCaseSlots]?: HttpUseCases[UseCaseSlots[K][0]][UseCaseSlots[K][1] &
    keyof HttpUseCases[UseCaseSlots[K][0]]];
} & Partial<HttpDatabaseHooks> &
  HttpSettings;

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
  overrides?: TestAppOverrides;
  /** The fake provider's name, also the `{provider}` path segment. Default `browserbase`. */
  providerName?: string;
  /** The fake provider's regions, the first being the default. Default: Browserbase's four. */
  regions?: readonly string[];
  /** False: the fake provider cannot load extensions, as the local provider (default true). */
  loadsExtensions?: boolean;
  /** The live-view hub (http-api.md §14); default a `FakeLiveViewHub`; null for none (`debug` is then 501). */
  liveView?: LiveViewHub | null;
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
  apiKeys: InMemoryApiKeyRepository;
  idempotency: InMemoryIdempotencyStore;
  /** The cloud-browser provider: records every call, can be told to fail the next one. */
  provider: FakeBrowserProvider;
  /** The live-view hub the app serves viewers with, if any. */
  liveView: LiveViewHub | undefined;
  /** Drives the re-check of open live viewers' grants (`tick()`); it never runs on its own. */
  liveViewRecheck: ManualRecheckTimer;
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
  const apiKeys = new InMemoryApiKeyRepository();
  const idempotency = new InMemoryIdempotencyStore();
  const provider = new FakeBrowserProvider({
    clock,
    name: options.providerName ?? 'browserbase',
    ...(options.regions ? { regions: options.regions } : {}),
    ...(options.loadsExtensions === undefined ? {} : { loadsExtensions: options.loadsExtensions }),
  });
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
  const { checkReadiness, translateError, requestScope, ...rest } = options.overrides ?? {};
  // Listening first, so the app's public URL (the live-view links) is where it really is.
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browserdeck = await createBrowserdeck({
    database: {
      storage: {
        users,
        projects,
        sessions,
        agents,
        apiKeys,
        idempotency,
        rateLimiter: new FixedWindowRateLimiter({ clock }),
        database: { checkReadiness: async () => {} },
      },
    },
    identity: { provider: identity },
    browsers: { provider },
    // A key of its own, so log cursors are signed as in production and nothing is written to disk.
    secretKey: randomBytes(32).toString('base64'),
    logger,
    clock,
    ids,
    publicUrl: baseUrl,
  });
  const liveView = options.liveView === undefined ? new FakeLiveViewHub() : (options.liveView ?? undefined);
  const liveViewRecheck = new ManualRecheckTimer();
  const deps = {
    ...withOverrides(browserdeck.http.deps, { checkReadiness, translateError, requestScope }, rest),
    liveView,
    liveViewRecheck: { timer: liveViewRecheck.timer },
  };
  const app = createHttpApp(deps);
  const liveViewUpgrade = liveViewUpgradeHandler(deps, '');
  server.on('request', app.callback());
  server.on('upgrade', (req, socket, head) => {
    if (!liveViewUpgrade(req, socket, head)) browserdeck.http.handleUpgrade(req, socket, head);
  });

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

  const close = async () => {
    await new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
    await liveView?.close();
    await browserdeck.close();
  };

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
    apiKeys,
    idempotency,
    provider,
    liveView,
    liveViewRecheck,
    logs,
    rawLogs,
    request,
    signUpAndIn,
    close,
  };
}

/** The composition's deps with a test's replacements: use cases by name, hooks and settings. */
function withOverrides(
  deps: HttpAppDeps,
  hooks: Partial<HttpDatabaseHooks>,
  overrides: Omit<TestAppOverrides, keyof HttpDatabaseHooks>,
): HttpAppDeps {
  const useCases = {
    auth: { ...deps.useCases.auth },
    projects: { ...deps.useCases.projects },
    sessions: { ...deps.useCases.sessions },
    agents: { ...deps.useCases.agents },
    apiKeys: { ...deps.useCases.apiKeys },
    contexts: { ...deps.useCases.contexts },
  };
  const settings: HttpSettings = { ...deps.settings };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const slot = USE_CASE_SLOTS[name as keyof UseCaseSlots];
    if (slot) (useCases[slot[0]] as Record<string, unknown>)[slot[1]] = value;
    else (settings as Record<string, unknown>)[name] = value;
  }
  const defined = Object.fromEntries(Object.entries(hooks).filter(([, value]) => value !== undefined));
  return { ...deps, useCases, database: { ...deps.database, ...defined }, settings };
}

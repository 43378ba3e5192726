import type { AccessOptions, Browserdeck, BrowserdeckOverrides } from '@browserdeck/adapters';
import type { LiveViewHub } from '@browserdeck/adapters/live-view';
import type { IdentityProvider } from '@browserdeck/domain';
import type {
  FakeBrowserProvider,
  FakeScriptRunner,
  InMemoryAgentRepository,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryExtensionRepository,
  InMemoryIdempotencyStore,
  InMemoryIdentityProvider,
  InMemoryInvitationRepository,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  InMemoryRunLogStore,
  InMemoryRunRepository,
  InMemorySessionRepository,
  InMemoryUserRepository,
  ManualClock,
  ManualTimers,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import type Koa from 'koa';
import type { ManualRecheckTimer } from './ManualRecheckTimer.ts';

/**
 * What a test may replace in the composed app, as `createBrowserdeck`'s `overrides` take it: use
 * cases by feature (`{ useCases: { sessions: { create: failing } } }`), database hooks
 * (`{ database: { checkReadiness } }`) and HTTP settings (`{ http: { corsOrigins } }`).
 */
export type TestAppOverrides = Omit<
  BrowserdeckOverrides,
  'liveView' | 'liveViewRecheck' | 'scriptRunner' | 'timers'
>;

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
  /** Replaces parts of the composed app: use cases, database hooks, HTTP settings. */
  overrides?: TestAppOverrides;
  /** The fake provider's name, also the `{provider}` path segment. Default `browserbase`. */
  providerName?: string;
  /** The fake provider's regions, the first being the default. Default: Browserbase's four. */
  regions?: readonly string[];
  /** False: the fake provider cannot load extensions, as the local provider (default true). */
  loadsExtensions?: boolean;
  /** Largest session upload in bytes (default the service's, 50 MiB). */
  uploadMaxBytes?: number;
  /** Sign-up mode, operators and audit retention (SPEC §17); default open sign-up, no operators. */
  access?: AccessOptions;
  /** The live-view hub (http-api.md §14); default a `FakeLiveViewHub`; null for none (`debug` is then 501). */
  liveView?: LiveViewHub | null;
  /**
   * Whether the app's worker executes runs (through `scriptRunner`) as they are queued (default true).
   * False: they stay QUEUED unless the test executes one (`browserdeck.useCases.runs.execute`).
   */
  runWorker?: boolean;
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
  /** The composed app's Koa app (`browserdeck.http.app`). */
  app: Koa;
  baseUrl: string;
  /** The composition the app serves: its use cases, HTTP side (`http.routes`, `http.createMetricsApp`). */
  browserdeck: Browserdeck;
  clock: ManualClock;
  identity: I;
  users: InMemoryUserRepository;
  /** Project members, invitations and the audit log (SPEC §17). */
  members: InMemoryMemberRepository;
  invitations: InMemoryInvitationRepository;
  auditLog: InMemoryAuditLog;
  projects: InMemoryProjectRepository;
  sessions: InMemorySessionRepository;
  agents: InMemoryAgentRepository;
  apiKeys: InMemoryApiKeyRepository;
  extensions: InMemoryExtensionRepository;
  idempotency: InMemoryIdempotencyStore;
  runs: InMemoryRunRepository;
  runLogs: InMemoryRunLogStore;
  /** Executes the runs' scripts: plays what the test queued (`willPlay`), holds, records every job. */
  scriptRunner: FakeScriptRunner;
  /**
   * The run heartbeats and the worker's sweep for lost runs repeat only on `tick()` (a run whose
   * heartbeat is 20 s older than the clock is ended `worker_lost` by the sweep).
   */
  timers: ManualTimers;
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
  /** Creates a project of `user`'s through the API; its id. */
  createProject(user: TestUser, name?: string): Promise<string>;
  /** Creates an API key for `projectId` as `user` through the API; the key (`bdk_…`). */
  createApiKey(user: TestUser, projectId: string, name?: string): Promise<string>;
  close(): Promise<void>;
}

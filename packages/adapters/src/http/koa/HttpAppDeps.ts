import type { DomainError } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { LiveViewHub } from '../../browsers/live-view/LiveViewHub.ts';
import type { InstanceCallTargets } from '../../instances/instanceCalls.ts';
import type { MetricsRegistry } from '../../observability/MetricsRegistry.ts';
import type { PassthroughEndpoint } from '../../shared/PassthroughEndpoint.ts';
import type { UpgradeEndpoint } from '../../shared/UpgradeEndpoint.ts';
import type { AdminRouteDeps } from './api/admin/adminRoutes.ts';
import type { AgentRouteDeps } from './api/agents/agentRoutes.ts';
import type { ApiKeyRouteDeps } from './api/api-keys/apiKeyRoutes.ts';
import type { AuditRouteDeps } from './api/audit/auditRoutes.ts';
import type { AuthRouteDeps } from './api/auth/authRoutes.ts';
import type { ConsoleSettings } from './api/console/ConsoleSettings.ts';
import type { ExtensionRouteDeps } from './api/extensions/extensionRoutes.ts';
import type { LiveViewRecheckOptions } from './api/live-view/LiveViewGrantWatch.ts';
import type { MemberRouteDeps } from './api/members/memberRoutes.ts';
import type { MetricsEndpointOptions } from './api/operational/metricsRoute.ts';
import type { ProjectRouteDeps } from './api/projects/projectRoutes.ts';
import type { RunRouteDeps } from './api/runs/runRoutes.ts';
import type { ReplayRouteDeps } from './api/sessions/replayRoutes.ts';
import type { SessionFileRouteDeps } from './api/sessions/sessionFileRoutes.ts';
import type { SessionRouteDeps } from './api/sessions/sessionRoutes.ts';
import type { BrowserbaseContextRouteDeps } from './browserbase/browserbaseContextRoutes.ts';
import type { TrustProxy } from './kernel/proxy/TrustProxy.ts';
import type { AuthenticateInstance } from './kernel/routing/InstanceCaller.ts';
import type { PassthroughForwarding } from './kernel/routing/servePassthroughs.ts';

/**
 * The use cases behind the routes, grouped by feature like the composition's `useCases` (which fits
 * here as it is): each feature's route deps pick theirs from `BrowserdeckUseCases` (`UseCasesOf`).
 * Typed structurally: any object with a matching `execute` will do.
 */
export interface HttpUseCases {
  auth: AuthRouteDeps;
  /** Projects, their audit log and their transfer to another member. */
  projects: ProjectRouteDeps & AuditRouteDeps & Pick<MemberRouteDeps, 'transfer'>;
  /** A project's members and invitations (SPEC §17). */
  members: Omit<MemberRouteDeps, 'transfer'>;
  /** What operators do (`ADMIN_EMAILS`). */
  operators: AdminRouteDeps;
  /** Sessions, and their files (downloads, uploads). */
  sessions: SessionRouteDeps & SessionFileRouteDeps & ReplayRouteDeps;
  agents: AgentRouteDeps;
  apiKeys: ApiKeyRouteDeps;
  /** A project's uploaded extensions (http-api.md §5, §13). */
  extensions: ExtensionRouteDeps;
  /** Runs of agents and of scripts on live sessions (http-api.md §11). */
  runs: RunRouteDeps;
  /** The project's browser contexts (the Browserbase-compatible API's `/v1/contexts`). */
  contexts: BrowserbaseContextRouteDeps;
}

/** How the app reaches its database: readiness, error translation, a per-request scope. */
export interface HttpDatabaseHooks {
  /** Resolves when the database answers; throws when it does not (`/readyz` → 503). */
  checkReadiness: () => Promise<void>;
  /** Maps adapter errors (e.g. database constraint violations) to domain errors; else 500. */
  translateError?: ((error: unknown) => DomainError | undefined) | undefined;
  /**
   * Runs each routed request inside a scope, e.g. MikroORM's per-request context:
   * `(next) => RequestContext.create(orm.em, next)`.
   */
  requestScope?: ((next: () => Promise<void>) => Promise<void>) | undefined;
}

/** HTTP settings; every one has a safe default. */
export interface HttpSettings {
  /** Origins allowed to call from browsers (`*` for any). CORS stays closed when absent or empty. */
  corsOrigins?: string[] | undefined;
  /** Requests running longer are cut off with 503 `request_timeout`. Default 30 000. */
  requestTimeoutMs?: number | undefined;
  /**
   * Which proxies in front may say who the client is (`X-Forwarded-For`: rate limits and logs read
   * the address) and how it came (`X-Forwarded-Proto`/`-Host`, with `publicUrlFromProxy`): `true`
   * (every hop), a hop count, or addresses and CIDRs (docs/adr/0032). Default `false`: none, the
   * socket's peer is the client.
   */
  trustProxy?: TrustProxy | undefined;
  /**
   * Whether a trusted proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` give the scheme and host of
   * the URLs handed to its requests (`connectUrl`, `seleniumRemoteUrl`, live-view links), in place of
   * `publicUrl`'s (its path prefix kept). For a `publicUrl` that is a default, not configured:
   * `createBrowserdeck` turns it on when its `publicUrl` option is absent. No effect without `trustProxy`.
   */
  publicUrlFromProxy?: boolean | undefined;
  /**
   * Who may read `/metrics` (`token`: a bearer token of its own) and whether this app serves it
   * (`separate`: no, `createMetricsApp` does, on another address). Default: served here, open.
   */
  metricsEndpoint?: MetricsEndpointOptions | undefined;
  /**
   * The web console at `/console` (docs/console.md): the installed `@browserdeck/console` build by
   * default, a built console elsewhere with `{ dir }`, or not served with `false`.
   */
  console?: ConsoleSettings | false | undefined;
  /**
   * Check every JSON answer against its route's declared schema for that status (and the status
   * against the declared ones), and every error answer's code against the codes its route documents
   * (`errors` and those its input and auth imply); an answer that does not match is logged and becomes
   * a 500 naming the drift. For tests (`createTestApp` turns it on); off by default, as production should be.
   */
  validateResponses?: boolean | undefined;
  /** Milliseconds between the heartbeat comments of a run's log stream (SSE). Default 15 000. */
  eventStreamHeartbeatMs?: number | undefined;
}

/** Everything the Koa app needs, grouped: use cases by feature, the database hooks, settings. */
export interface HttpAppDeps {
  useCases: HttpUseCases;
  /**
   * The configured cloud-browser provider's name (`local`, `browserbase`): the `{provider}` segment of
   * `/v1/{provider}/projects/…`, which also accepts the alias `cloudbrowser`.
   */
  providerName: string;
  database: HttpDatabaseHooks;
  /** Request and error logs go here; the app adds redaction of credentials and tokens. */
  logger: Logger;
  /** Request counts and latencies are recorded here and served at `/metrics`; a private one when absent. */
  metrics?: MetricsRegistry | undefined;
  settings?: HttpSettings | undefined;
  /**
   * Where clients reach this API, with the prefix a host mounts it under (e.g.
   * `https://app.example.com/browserdeck`): the live-view URLs of `…/debug` are built from it.
   * Default `http://127.0.0.1:3000`.
   */
  publicUrl?: string | undefined;
  /**
   * Shows sessions' browsers live over CDP (http-api.md §14), for a provider without live URLs of its
   * own. Without one, such a provider's `…/debug` answers 501 and live-view WebSockets are refused.
   */
  liveView?: LiveViewHub | undefined;
  /**
   * How often open live-view viewers' grants are re-checked (project archived, API key revoked,
   * sign-in ended close them), and with what timer. Default every 5 s.
   */
  liveViewRecheck?: LiveViewRecheckOptions | undefined;
  /**
   * WebSocket endpoints other adapters serve on this server (the local provider's `connectUrl`): they
   * join the route table as upgrade routes, beside the live view's, and `upgradeHandler` serves them.
   */
  upgrades?: readonly UpgradeEndpoint[] | undefined;
  /**
   * The provider's WebDriver endpoints (sessions' `seleniumRemoteUrl`): they join the route table as
   * passthrough routes, served raw ahead of the router, with WebDriver's error shape.
   */
  webdriver?: readonly PassthroughEndpoint[] | undefined;
  /**
   * The calls of the other server instances sharing the database (`/internal/v1/…`): what serves
   * them, and the check of their signatures. They join the route table as `instance` routes; absent
   * when this instance takes none (in-memory storage).
   */
  instanceCalls?: { targets: InstanceCallTargets; authenticate: AuthenticateInstance } | undefined;
  /** Offers each passthrough request about a session (its WebDriver endpoint) to the instance holding it first. */
  forwardPassthrough?: PassthroughForwarding | undefined;
}

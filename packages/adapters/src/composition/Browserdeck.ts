import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BrowserdeckUseCases, IdentityProvider } from '@browserdeck/domain';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { HttpServerTimeouts } from '../http/koa/httpServerOptions.ts';
import type { AnyRoute } from '../http/koa/kernel/routing/RouteDefinition.ts';
import type { MetricsRegistry } from '../observability/MetricsRegistry.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';

/** Browserdeck's HTTP side, for a host's own server. */
export interface BrowserdeckHttp {
  /** The whole API as a Koa app: `app.callback()` on a server, or `mount('/prefix', app)` in a host. */
  readonly app: Koa;
  /** The same API as one Koa middleware, to mount the ordinary Koa way under any prefix. */
  readonly middleware: Koa.Middleware;
  /**
   * Answers WebSocket upgrades: sessions' `connectUrl` connects (local provider) and live-view
   * viewers (`/v1/live/{session_id}/ws`, http-api.md §14); anything else is refused with a problem
   * answer. `server.on('upgrade', http.handleUpgrade)`.
   */
  readonly handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** An app serving only `/metrics`, for `settings.metricsEndpoint.separate` (another address). */
  createMetricsApp(): Koa;
  /**
   * An app serving only `/healthz`, `/readyz` and `/metrics` (unless served separately): for a
   * worker-only process, which answers no API requests. Its WebSocket upgrades (the local browsers'
   * `connectUrl`s, which its runs connect to) stay on `handleUpgrade`.
   */
  createWorkerApp(): Koa;
  /** `node:http` server timeouts that fit the request cut-off: `createServer(serverOptions, …)`. */
  readonly serverOptions: HttpServerTimeouts;
  /**
   * The API's route table (method, path, auth, request and response schemas), the one the app
   * serves and documents at `/openapi.json`: to list or check the routes.
   */
  readonly routes: readonly AnyRoute[];
}

/** A composed Browserdeck: what `createBrowserdeck` returns. */
export interface Browserdeck {
  /** Every use case by feature, for in-process calls with the same rules as HTTP. */
  readonly useCases: BrowserdeckUseCases;
  readonly http: BrowserdeckHttp;
  /** The browser provider as built (with its declared capabilities), before measuring. */
  readonly provider: ComposableBrowserProvider;
  readonly identity: IdentityProvider;
  readonly storage: BrowserdeckStorage;
  readonly metrics: MetricsRegistry;
  readonly logger: Logger;
  /**
   * Starts the background work: the reconciler that keeps sessions' status fresh, the sweep for runs
   * whose worker was lost, the sweep that deletes runs past `runs.retentionDays` and, unless
   * `runs.worker` is false, the worker taking runs. Idempotent.
   */
  start(): void;
  /**
   * Stops the background work: the worker stops taking runs, gives running ones `runs.shutdownGraceSec`
   * and cancels the rest (their sessions released); the reconciler finishes a pass in progress. Then
   * it ends every session the provider holds (its connected clients hear close code 1001) and stores
   * them `COMPLETED` at that moment, and closes the queue and the database when the composition opened
   * them. Close the HTTP server first. A part that fails to stop does not keep the others from
   * stopping: `close()` then rejects with its error (an `AggregateError` when several failed).
   */
  close(): Promise<void>;
}

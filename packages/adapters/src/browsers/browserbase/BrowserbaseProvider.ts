import type { Browserbase } from '@browserbasehq/sdk';
import {
  type Clock,
  type CreateBrowserRequest,
  isTerminalStatus,
  type LiveViewCapability,
  type Logger,
  type ProviderLiveUrls,
  type ProviderSessionSnapshot,
  type ProviderSessions,
  type SessionLogEntry,
  SystemClock,
  silentLogger,
} from '@browserdeck/domain';
import { InMemoryOrphanSearches } from '../orphans/InMemoryOrphanSearches.ts';
import type { OrphanSearches } from '../orphans/OrphanSearches.ts';
import { OrphanSweepLoop } from '../orphans/OrphanSweepLoop.ts';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../ProviderCapabilities.ts';
import type { BrowserbaseCalls } from './BrowserbaseCalls.ts';
import { BrowserbaseContextStore } from './BrowserbaseContextStore.ts';
import { BrowserbaseExtensionStore } from './BrowserbaseExtensionStore.ts';
import { BrowserbaseFiles } from './BrowserbaseFiles.ts';
import { BrowserbaseOrphans } from './BrowserbaseOrphans.ts';
import { BROWSERBASE_REGIONS } from './browserbaseRegions.ts';
import { buildCreateSessionParams } from './buildCreateSessionParams.ts';
import type { BrowserbaseSdk } from './loadBrowserbaseSdk.ts';
import { openBrowserbaseClient } from './openBrowserbaseClient.ts';
import { isTransient, retryRead } from './retryRead.ts';
import { toProviderError } from './toProviderError.ts';
import { toProviderLiveUrls } from './toProviderLiveUrls.ts';
import { toProviderSnapshot } from './toProviderSnapshot.ts';
import { toSessionLogEntries } from './toSessionLogEntries.ts';
import { withDeadline } from './withDeadline.ts';

/** Browserbase's public API. */
export const BROWSERBASE_DEFAULT_BASE_URL = 'https://api.browserbase.com';

/** The least time an extension upload gets (a zip of up to 10 MiB), whatever `timeoutMs` says. */
export const EXTENSION_UPLOAD_TIMEOUT_MS = 60_000;
export {
  BROWSERBASE_UPLOAD_MAX_BYTES,
  BROWSERBASE_UPLOADS_DIR,
  FILE_UPLOAD_TIMEOUT_MS,
} from './BrowserbaseFiles.ts';

/** What BrowserbaseProvider needs. */
export interface BrowserbaseProviderDeps {
  /** `BROWSERBASE_API_KEY`. Sent as `X-BB-API-Key`; never logged or put in an error. */
  apiKey: string;
  /** `BROWSERBASE_PROJECT_ID`: the provider project for sessions that name none, and for release. */
  projectId: string;
  /** `BROWSERBASE_BASE_URL`; default `https://api.browserbase.com`. */
  baseUrl?: string;
  /** Per-request timeout in milliseconds (default 10 000) → `provider_timeout`. */
  timeoutMs?: number;
  /** Retries of reads (get, logs) on connection errors and 5xx (default 2). Create is never retried. */
  readRetries?: number;
  /** Wait before the first read retry, doubled after (default 200 ms). */
  readRetryDelayMs?: number;
  /**
   * When to look for a browser left behind by a create whose outcome is unknown (see
   * `sweepOrphans`), in milliseconds after the failure. Default 0, 10 s and 60 s; none: no search.
   */
  orphanSweepDelaysMs?: readonly number[];
  /**
   * Where those searches are kept between looks (`provider_orphan_searches` with the MikroORM
   * storage, so a restart or another instance carries them on). Default: in this process's memory.
   */
  orphanSearches?: OrphanSearches;
  /** How often the background pass (`capabilities.background`) looks for due searches (default 5 000 ms). */
  orphanSweepIntervalMs?: number;
  clock?: Clock;
  logger?: Logger;
}

/**
 * The Browserbase cloud-browser provider, through the official `@browserbasehq/sdk` (an optional peer
 * dependency, loaded on first use). The SDK's own retries are off (they would retry a create, and
 * wait out long `Retry-After`s); reads retry here, within a small bound. Every request runs under a
 * deadline of `timeoutMs`. Contexts are Browserbase's (`BrowserbaseContextStore`). See
 * docs/adr/0004-browserbase-provider.md.
 */
export class BrowserbaseProvider implements ComposableBrowserProvider, ProviderSessions, LiveViewCapability {
  readonly name = 'browserbase';
  readonly regions: readonly string[] = BROWSERBASE_REGIONS;
  readonly defaultProviderProjectId: string;
  /** Browserbase's contexts in the configured project, each named for one of our projects. */
  readonly contexts: BrowserbaseContextStore;
  /** Browserbase's own extensions, which its browsers load by Browserbase's id (`SessionExtension`). */
  readonly extensions: BrowserbaseExtensionStore;
  private readonly deps: BrowserbaseProviderDeps;
  private connection: Promise<{ sdk: BrowserbaseSdk; client: Browserbase }> | undefined;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly readRetries: number;
  private readonly readRetryDelayMs: number;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly orphans: BrowserbaseOrphans;
  /** Its core is itself (`create`, `get`, `release`, `logs`). */
  readonly sessions: ProviderSessions = this;
  /**
   * Files, its own live view, contexts and extensions, and the orphan-search pass, every
   * `orphanSweepIntervalMs` on every instance that has the provider (`background`).
   */
  readonly capabilities: AdapterCapabilities;

  constructor(deps: BrowserbaseProviderDeps) {
    if (!deps.apiKey) throw new Error('BrowserbaseProvider needs an API key (BROWSERBASE_API_KEY).');
    if (!deps.projectId) throw new Error('BrowserbaseProvider needs a project id (BROWSERBASE_PROJECT_ID).');
    this.apiKey = deps.apiKey;
    this.timeoutMs = deps.timeoutMs ?? 10_000;
    this.defaultProviderProjectId = deps.projectId;
    this.readRetries = deps.readRetries ?? 2;
    this.readRetryDelayMs = deps.readRetryDelayMs ?? 200;
    this.clock = deps.clock ?? new SystemClock();
    this.logger = deps.logger ?? silentLogger;
    this.deps = deps;
    const calls: BrowserbaseCalls = {
      read: (operation, run) => this.read(operation, run),
      call: (operation, run, notFoundIsNull) => this.call(operation, run, notFoundIsNull),
    };
    this.orphans = new BrowserbaseOrphans({
      ...{ calls, clock: this.clock, logger: this.logger },
      searches: deps.orphanSearches ?? new InMemoryOrphanSearches(),
      delaysMs: deps.orphanSweepDelaysMs ?? [0, 10_000, 60_000],
      release: (id, projectId) => this.release(id, projectId),
      readBudgetMs: this.timeoutMs * (this.readRetries + 3),
    });
    const loop = new OrphanSweepLoop({
      pass: () => this.sweepOrphans(),
      intervalMs: deps.orphanSweepIntervalMs ?? 5_000,
      logger: this.logger,
    });
    this.contexts = new BrowserbaseContextStore({
      providerProjectId: deps.projectId,
      clock: this.clock,
      once: (operation, run) =>
        this.call(operation, (client) => withDeadline(this.timeoutMs, (signal) => run(client, signal))),
      read: (operation, run) => this.read(operation, run),
    });
    const uploadTimeoutMs = Math.max(this.timeoutMs, EXTENSION_UPLOAD_TIMEOUT_MS);
    this.extensions = new BrowserbaseExtensionStore({
      once: (operation, run) =>
        this.call(operation, (client) => withDeadline(uploadTimeoutMs, (signal) => run(client, signal))),
    });
    this.capabilities = {
      background: { start: () => loop.start(), stop: () => loop.stop() },
      contexts: this.contexts,
      extensions: this.extensions,
      files: new BrowserbaseFiles({ calls, timeoutMs: this.timeoutMs }),
      liveView: this,
    };
  }

  async create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    const params = buildCreateSessionParams(request);
    try {
      const body = await this.call('create a session', (client) =>
        withDeadline(this.timeoutMs, (signal) => client.sessions.create(params, { maxRetries: 0, signal })),
      );
      return toProviderSnapshot(body);
    } catch (error) {
      // Unless Browserbase refused, it may have started the browser although we never learnt of it
      // (a timeout, a reset connection, a 5xx from a proxy, an answer we could not read): end it.
      if (!isRefusal(error)) await this.orphans.record(request);
      throw error;
    }
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const id = encodeURIComponent(providerSessionId);
    const body = await this.read('read a session', (client, signal) =>
      client.sessions.retrieve(id, { signal }),
    );
    if (body === null) return null;
    const snapshot = toProviderSnapshot(body);
    if (snapshot.connectUrl || isTerminalStatus(snapshot.status)) return snapshot;
    // An active session must keep a usable URL: ask the live-URL endpoint when GET sent none.
    const live = await this.read('read live URLs', (client, signal) => client.sessions.debug(id, { signal }));
    const wsUrl = (live as { wsUrl?: unknown } | null)?.wsUrl;
    return { ...snapshot, connectUrl: typeof wsUrl === 'string' ? wsUrl : '' };
  }

  async release(
    providerSessionId: string,
    providerProjectId?: string,
  ): Promise<ProviderSessionSnapshot | null> {
    const id = encodeURIComponent(providerSessionId);
    const body = await this.call(
      'release a session',
      (client) =>
        withDeadline(this.timeoutMs, (signal) =>
          client.sessions.update(
            id,
            { projectId: providerProjectId ?? this.defaultProviderProjectId, status: 'REQUEST_RELEASE' },
            { maxRetries: 0, signal },
          ),
        ),
      true,
    );
    return body === null ? null : toProviderSnapshot(body);
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    const id = encodeURIComponent(providerSessionId);
    const body = await this.read('read session logs', (client, signal) =>
      client.sessions.logs.list(id, { signal }),
    );
    return body === null ? [] : toSessionLogEntries(body);
  }

  /** Browserbase's own live-view URLs (`GET /v1/sessions/{id}/debug`), passed through; null on 404. */
  async liveUrls(providerSessionId: string): Promise<ProviderLiveUrls | null> {
    const id = encodeURIComponent(providerSessionId);
    const body = await this.read('read live URLs', (client, signal) => client.sessions.debug(id, { signal }));
    return body === null ? null : toProviderLiveUrls(body);
  }

  /** One pass of the search for browsers left by failed creates (`BrowserbaseOrphans.sweep`); public for tests. */
  sweepOrphans(now: Date = this.clock.now()): Promise<number> {
    return this.orphans.sweep(now);
  }

  /** A read: each attempt under the deadline, retried on connection errors and 5xx; 404 → null. */
  private read(
    operation: string,
    run: (client: Browserbase, signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown> {
    return this.call(
      operation,
      (client, sdk) =>
        retryRead(() => withDeadline(this.timeoutMs, (signal) => run(client, signal)), {
          retries: this.readRetries,
          delayMs: this.readRetryDelayMs,
          isTransient: (error) => isTransient(error, sdk),
          onRetry: (attempt, error) =>
            this.logger.warn(
              { provider: this.name, operation, attempt, reason: retryReason(error, sdk) },
              'Browserbase read failed; retrying',
            ),
        }),
      true,
    );
  }

  /** Runs one SDK call; a 404 becomes null when asked, every other failure a `ProviderError`. */
  private async call(
    operation: string,
    run: (client: Browserbase, sdk: BrowserbaseSdk) => Promise<unknown>,
    notFoundIsNull = false,
  ): Promise<unknown> {
    const { sdk, client } = await this.connect();
    try {
      return await run(client, sdk);
    } catch (error) {
      if (notFoundIsNull && error instanceof sdk.APIError && error.status === 404) return null;
      throw toProviderError(error, { operation, apiKey: this.apiKey, now: this.clock.now(), sdk });
    }
  }

  /** Loads the SDK and builds the client, once (again after a failure). */
  private connect(): Promise<{ sdk: BrowserbaseSdk; client: Browserbase }> {
    this.connection ??= openBrowserbaseClient({
      apiKey: this.apiKey,
      baseUrl: this.deps.baseUrl ?? BROWSERBASE_DEFAULT_BASE_URL,
      timeoutMs: this.timeoutMs,
    });
    this.connection.catch(() => {
      this.connection = undefined;
    });
    return this.connection;
  }
}

/** A failure that says Browserbase did not start a browser: an answer with a 4xx status (429 too). */
function isRefusal(error: unknown): boolean {
  const status = (error as { cause?: { status?: unknown } } | null)?.cause?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function retryReason(error: unknown, sdk: BrowserbaseSdk): string {
  return error instanceof sdk.APIError && typeof error.status === 'number'
    ? `status ${error.status}`
    : 'connection failed';
}

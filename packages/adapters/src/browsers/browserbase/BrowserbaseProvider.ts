import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Browserbase, ClientOptions } from '@browserbasehq/sdk';
import {
  type Clock,
  type CreateBrowserRequest,
  type FilesCapability,
  isTerminalStatus,
  type LiveViewCapability,
  type Logger,
  type ProviderLiveUrls,
  type ProviderSessionSnapshot,
  type ProviderSessions,
  type SessionLogEntry,
  SystemClock,
  silentLogger,
  type UploadedSessionFile,
  UploadTooLargeError,
} from '@browserdeck/domain';
import { InMemoryOrphanSearches } from '../orphans/InMemoryOrphanSearches.ts';
import type { OrphanSearch, OrphanSearches } from '../orphans/OrphanSearches.ts';
import { OrphanSweepLoop } from '../orphans/OrphanSweepLoop.ts';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../ProviderCapabilities.ts';
import { BrowserbaseContextStore } from './BrowserbaseContextStore.ts';
import { BrowserbaseExtensionStore } from './BrowserbaseExtensionStore.ts';
import { BROWSERBASE_REGIONS } from './browserbaseRegions.ts';
import { buildCreateSessionParams } from './buildCreateSessionParams.ts';
import { type BrowserbaseSdk, loadBrowserbaseSdk } from './loadBrowserbaseSdk.ts';
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
/** How long a session file upload may take at least (it may be up to the upload limit). */
export const FILE_UPLOAD_TIMEOUT_MS = 120_000;
/**
 * Where Browserbase's browsers keep a session's uploads, by its uploads guide: the path its
 * `setInputFiles` examples give for a file uploaded through `sessions.uploads.create`.
 */
export const BROWSERBASE_UPLOADS_DIR = '/tmp/.uploads';
/**
 * The largest session file this provider passes on (100 MiB), whatever `UPLOAD_MAX_MB` allows: the
 * SDK sends a multipart body of known length, so it reads every upload whole into memory first
 * (`toFile` collects a stream too), and this bounds what one upload holds there.
 */
export const BROWSERBASE_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

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
export class BrowserbaseProvider
  implements ComposableBrowserProvider, ProviderSessions, FilesCapability, LiveViewCapability
{
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
  private readonly orphanSearches: OrphanSearches;
  private readonly orphanDelaysMs: readonly number[];
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
    this.orphanSearches = deps.orphanSearches ?? new InMemoryOrphanSearches();
    this.orphanDelaysMs = deps.orphanSweepDelaysMs ?? [0, 10_000, 60_000];
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
      files: this,
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
      if (!isRefusal(error)) await this.recordOrphanSearch(request);
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

  /**
   * Browserbase's zip of the session's downloads (`GET /v1/sessions/{id}/downloads`), passed through
   * as it streams; null on 404. A read: retried like the others until its answer starts.
   */
  async downloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    const id = encodeURIComponent(providerSessionId);
    const response = (await this.read('read session downloads', (client, signal) =>
      client.sessions.downloads.list(id, { signal }),
    )) as Response | null;
    if (response === null) return null;
    return response.body
      ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
      : Readable.from([]);
  }

  /**
   * Uploads the file to Browserbase (`POST /v1/sessions/{id}/uploads`, multipart field `file`), once
   * (never retried: it could store it twice), under `FILE_UPLOAD_TIMEOUT_MS`. Browserbase answers
   * only `{ message }`: the path is where its browsers keep uploads (`BROWSERBASE_UPLOADS_DIR`).
   * The file is read whole first (the SDK sends only bodies of known length), so at most
   * `BROWSERBASE_UPLOAD_MAX_BYTES`: past it, `payload_too_large` before anything is sent. Null on 404.
   */
  async upload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    const { toFile } = await loadBrowserbaseSdk();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of file.content) {
      size += chunk.byteLength;
      if (size > BROWSERBASE_UPLOAD_MAX_BYTES) {
        throw new UploadTooLargeError(
          BROWSERBASE_UPLOAD_MAX_BYTES,
          `The Browserbase provider takes files of up to ${BROWSERBASE_UPLOAD_MAX_BYTES} bytes (100 MiB).`,
        );
      }
      chunks.push(chunk);
    }
    const bytes = Buffer.concat(chunks, size);
    const upload = await toFile(bytes, file.name);
    const id = encodeURIComponent(providerSessionId);
    const timeoutMs = Math.max(this.timeoutMs, FILE_UPLOAD_TIMEOUT_MS);
    const body = await this.call(
      'upload a file to a session',
      (client) =>
        withDeadline(timeoutMs, (signal) =>
          client.sessions.uploads.create(id, { file: upload }, { maxRetries: 0, signal }),
        ),
      true,
    );
    if (body === null) return null;
    return { name: file.name, size: bytes.length, path: `${BROWSERBASE_UPLOADS_DIR}/${file.name}` };
  }

  /**
   * One pass of the search for browsers left by creates whose outcome is unknown: claims the due
   * searches of this provider (leased, so instances sharing the store never run the same one at
   * once), and for each looks for a browser of its session (`userMetadata.browserdeckSessionId`),
   * releases it while it is active, and forgets the search once a browser is found or its last look
   * (`orphanSweepDelaysMs`) is done; otherwise the search waits for its next look. Runs in the
   * background every `orphanSweepIntervalMs` (`capabilities.background`); public for tests.
   * Returns how many searches it carried out.
   */
  async sweepOrphans(now: Date = this.clock.now()): Promise<number> {
    const leaseUntil = new Date(now.getTime() + ORPHAN_BATCH * this.timeoutMs * (this.readRetries + 3));
    const due = await this.orphanSearches.claimDue(this.name, now, leaseUntil, ORPHAN_BATCH);
    for (const search of due) {
      try {
        await this.searchOnce(search);
      } catch (error) {
        // The store failed: the lease ends and the search is claimed again.
        this.logger.error(
          { sessionId: search.sessionId, error: String(error) },
          'could not keep track of the search for a Browserbase browser left by a failed create',
        );
      }
    }
    return due.length;
  }

  /** Records the search after a create whose outcome is unknown; never hides the create's failure. */
  private async recordOrphanSearch(request: CreateBrowserRequest): Promise<void> {
    const first = this.orphanDelaysMs[0];
    if (first === undefined) return;
    const now = this.clock.now();
    try {
      await this.orphanSearches.add({
        sessionId: request.sessionId,
        provider: this.name,
        providerProjectId: request.providerProjectId,
        attempt: 0,
        nextAt: new Date(now.getTime() + first),
        createdAt: now,
      });
    } catch (error) {
      this.logger.error(
        { sessionId: request.sessionId, error: String(error) },
        'could not record the search for a Browserbase browser left by a failed create',
      );
    }
  }

  /** One look for the browser of `search`'s session, then the search is forgotten or rescheduled. */
  private async searchOnce(search: OrphanSearch): Promise<void> {
    const { sessionId, attempt } = search;
    const nextDelay = this.orphanDelaysMs[attempt + 1];
    const next = () =>
      nextDelay === undefined
        ? this.orphanSearches.remove(sessionId)
        : this.orphanSearches.reschedule(
            sessionId,
            attempt + 1,
            new Date(search.createdAt.getTime() + nextDelay),
          );
    const q = `user_metadata['browserdeckSessionId']:'${sessionId}'`;
    let found: ProviderSessionSnapshot[];
    try {
      const body = await this.read('find a session', (client, signal) =>
        client.sessions.list({ q }, { signal }),
      );
      // Checked here as well: a filter the API ignored must never release other sessions.
      found = (Array.isArray(body) ? body : [])
        .filter((session) => session?.userMetadata?.browserdeckSessionId === sessionId)
        .map((session) => toProviderSnapshot(session));
    } catch (error) {
      if (nextDelay === undefined) {
        this.logger.error(
          { sessionId, error: String(error) },
          'could not look for a Browserbase browser left by a failed create',
        );
      }
      return next();
    }
    if (found.length === 0) return next();
    for (const orphan of found.filter((snapshot) => !isTerminalStatus(snapshot.status))) {
      try {
        await this.release(orphan.providerSessionId, orphan.providerProjectId);
        this.logger.warn(
          { sessionId, providerSessionId: orphan.providerSessionId },
          'released a Browserbase browser left by a failed create',
        );
      } catch (error) {
        this.logger.error(
          { sessionId, providerSessionId: orphan.providerSessionId, error: String(error) },
          'could not release a Browserbase browser left by a failed create',
        );
      }
    }
    await this.orphanSearches.remove(sessionId);
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

  /** Loads the SDK and builds the client, once. */
  private connect(): Promise<{ sdk: BrowserbaseSdk; client: Browserbase }> {
    this.connection ??= loadBrowserbaseSdk().then((sdk) => ({
      sdk,
      client: new sdk.Browserbase({
        apiKey: this.apiKey,
        // Explicit, so the SDK never falls back to reading BROWSERBASE_BASE_URL itself.
        baseURL: this.deps.baseUrl ?? BROWSERBASE_DEFAULT_BASE_URL,
        timeout: this.timeoutMs,
        maxRetries: 0,
        // The SDK captures `globalThis.fetch` when it loads; look it up per call instead, so fetch
        // instrumentation (tracing, nock) installed after the import still sees our requests.
        // A multipart upload (an extension) comes as a Node stream, which fetch sends only half-duplex.
        fetch: ((url, init) =>
          globalThis.fetch(
            url,
            // `duplex` is Node's (undici's) RequestInit field; the DOM's type does not know it.
            streamed(init) ? ({ ...init, duplex: 'half' } as RequestInit) : init,
          )) as typeof fetch as unknown as ClientOptions['fetch'],
      }),
    }));
    this.connection.catch(() => {
      this.connection = undefined;
    });
    return this.connection;
  }
}

/** Orphan searches claimed per pass; each claim's lease covers their looks (reads with retries, releases). */
const ORPHAN_BATCH = 5;

/** A failure that says Browserbase did not start a browser: an answer with a 4xx status (429 too). */
function isRefusal(error: unknown): boolean {
  const status = (error as { cause?: { status?: unknown } } | null)?.cause?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Whether a request's body is a stream (the SDK's multipart bodies), which fetch needs `duplex` for. */
function streamed(init: RequestInit | undefined): boolean {
  const body = init?.body as unknown;
  return (
    typeof body === 'object' && body !== null && Symbol.asyncIterator in body && !(body instanceof Uint8Array)
  );
}

function retryReason(error: unknown, sdk: BrowserbaseSdk): string {
  return error instanceof sdk.APIError && typeof error.status === 'number'
    ? `status ${error.status}`
    : 'connection failed';
}

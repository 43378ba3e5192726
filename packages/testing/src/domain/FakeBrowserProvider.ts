import type {
  BrowserProvider,
  Clock,
  CreateBrowserRequest,
  ExtensionsCapability,
  FilesCapability,
  HarDocument,
  LiveViewCapability,
  ProviderCapabilities,
  ProviderSessionSnapshot,
  ProviderSessions,
  ProxyMeteringCapability,
  RecordingCapability,
  RecordingFile,
  SessionLogEntry,
  SessionStatus,
  StoredRecording,
  UploadedSessionFile,
} from '@browserdeck/domain';
import { ProviderError } from '@browserdeck/domain';
import { InMemoryBrowserContextStore } from './InMemoryBrowserContextStore.ts';

/** The files of the fake's recorded tab: an HLS playlist of one segment, and an MP4 stand-in. */
export const FAKE_RECORDING_FILES: Readonly<Record<string, string>> = {
  'index.m3u8': '#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\nseg_000.ts\n#EXT-X-ENDLIST\n',
  'seg_000.ts': 'fake segment',
  'video.mp4': 'fake mp4',
};

/** One call the fake received, for assertions on what would have been sent to a provider. */
export type FakeProviderCall =
  | { op: 'create'; request: CreateBrowserRequest }
  | { op: 'get' | 'logs' | 'downloads'; providerSessionId: string }
  | { op: 'upload'; providerSessionId: string; name: string }
  | { op: 'har'; providerSessionId: string; sensitive: boolean }
  | { op: 'release'; providerSessionId: string; providerProjectId?: string };

/**
 * An in-memory cloud-browser provider for tests: it keeps sessions, honours release, and can be told
 * to fail the next call or to forget a session (as a provider 404 would). It has browser contexts
 * (in memory) unless told `contexts: false`, and loads extensions unless told `loadsExtensions: false`; a context is in use while a running session saves to it.
 */
export class FakeBrowserProvider implements BrowserProvider, ProviderSessions, FilesCapability {
  readonly name: string;
  readonly regions: readonly string[];
  readonly defaultProviderProjectId = 'fake-project';
  readonly instanceId?: string;
  readonly contexts?: InMemoryBrowserContextStore;
  readonly loadsExtensions: boolean;
  readonly calls: FakeProviderCall[] = [];
  /** Its core is itself: `create`, `get`, `release` and `logs` are its own methods (and test API). */
  readonly sessions: ProviderSessions = this;
  /** False: it cannot route proxies (`accepts.proxies`); a test may set it. */
  routesProxies = true;
  /** True: it stands for a provider routed to other instances (`placement.reachesOtherInstances`). */
  reachesOtherInstances = false;
  /** A provider extension store of its own, when a test gives it one (as Browserbase's). */
  extensions?: ExtensionsCapability;
  /** Live-view URLs of its own, when a test gives it some (as Browserbase's). */
  liveUrls?: LiveViewCapability['liveUrls'];
  /** Proxy bytes it meters itself, when a test gives it a meter (as the local provider's). */
  takeProxyBytes?: ProxyMeteringCapability['take'];
  /** Capabilities a test set (`capabilities = …`), over the ones its settings give. */
  private extraCapabilities: object = {};
  private readonly browsers = new Map<
    string,
    { snapshot: ProviderSessionSnapshot; logs: SessionLogEntry[]; request: CreateBrowserRequest }
  >();
  /** The zip bytes `downloads` answers per session (none set: an empty answer), and what was uploaded. */
  private readonly archives = new Map<string, Uint8Array>();
  /** Files uploaded to each session, in order, with their bytes. */
  readonly uploads = new Map<string, Array<{ name: string; bytes: Uint8Array }>>();
  private readonly failures: Array<{ op: FakeProviderCall['op'] | 'any'; error: ProviderError }> = [];
  private counter = 0;
  private readonly clock: Clock;

  /**
   * With `instanceId`, it stands for one instance of a provider whose browsers live in one process
   * (as `local`): its snapshots carry the id, and two fakes with different ids know nothing of each
   * other's sessions, like two server instances.
   */
  constructor(options: {
    clock: Clock;
    name?: string;
    regions?: readonly string[];
    instanceId?: string;
    contexts?: boolean;
    /** False: it cannot load extensions, as the local provider today (default true). */
    loadsExtensions?: boolean;
  }) {
    this.clock = options.clock;
    if (options.contexts !== false)
      this.contexts = new InMemoryBrowserContextStore({
        clock: options.clock,
        inUse: (projectId, contextId) => this.contextInUse(projectId, contextId),
      });
    if (options.instanceId !== undefined) this.instanceId = options.instanceId;
    this.name = options.name ?? 'fake';
    this.loadsExtensions = options.loadsExtensions ?? true;
    this.regions = options.regions ?? ['us-west-2', 'us-east-1', 'eu-central-1', 'ap-southeast-1'];
  }

  /**
   * Its capabilities, from its settings as they are now: files and network (itself), contexts unless told not,
   * a placement with an `instanceId`, `accepts` when it refuses extensions or proxies, the extension
   * store, live URLs and proxy meter a test gave it, and whatever a test set over them.
   */
  get capabilities(): ProviderCapabilities {
    const { liveUrls, takeProxyBytes } = this;
    return {
      files: this,
      contexts: this.contexts,
      network: { har: (id: string, options: { sensitive: boolean }) => this.har(id, options) },
      recording: this.recording,
      ...(this.instanceId === undefined
        ? {}
        : { placement: { instanceId: this.instanceId, reachesOtherInstances: this.reachesOtherInstances } }),
      ...(this.loadsExtensions && this.routesProxies
        ? {}
        : { accepts: { extensions: this.loadsExtensions, proxies: this.routesProxies } }),
      ...(this.extensions ? { extensions: this.extensions } : {}),
      ...(liveUrls ? { liveView: { liveUrls: (id: string) => liveUrls.call(this, id) } } : {}),
      ...(takeProxyBytes ? { proxyMetering: { take: () => takeProxyBytes.call(this) } } : {}),
      ...this.extraCapabilities,
    };
  }

  set capabilities(extra: object) {
    this.extraCapabilities = extra;
  }

  /** Makes the next call of `op` (or of any kind) fail with a provider error of `code`. */
  failNext(
    op: FakeProviderCall['op'] | 'any',
    code: ProviderError['code'] = 'provider_unavailable',
    retryAfterSec?: number,
  ): void {
    const error = new ProviderError(
      code as 'provider_unavailable',
      `fake provider: ${code}`,
      retryAfterSec ? { retryAfterSec } : {},
    );
    this.failures.push({ op, error });
  }

  /** Sets what the provider reports for a session (e.g. it timed out on its side). */
  setStatus(providerSessionId: string, status: SessionStatus): void {
    const entry = this.browsers.get(providerSessionId);
    if (!entry) return;
    const ended = status === 'PENDING' || status === 'RUNNING' ? null : this.clock.now();
    entry.snapshot = { ...entry.snapshot, status, endedAt: ended };
  }

  /** Sets the connect URL the provider reports for a session (e.g. one carrying a `signingKey`). */
  setConnectUrl(providerSessionId: string, connectUrl: string): void {
    const entry = this.browsers.get(providerSessionId);
    if (entry) entry.snapshot = { ...entry.snapshot, connectUrl };
  }

  /** The provider forgets a session: later gets answer null (a 404). */
  forget(providerSessionId: string): void {
    this.browsers.delete(providerSessionId);
  }

  /** Adds a log entry to a session. */
  addLog(providerSessionId: string, entry: SessionLogEntry): void {
    this.browsers.get(providerSessionId)?.logs.push(entry);
  }

  /** Provider session ids of browsers still running at the fake. */
  get running(): string[] {
    return [...this.browsers.values()]
      .filter((e) => e.snapshot.status === 'RUNNING' || e.snapshot.status === 'PENDING')
      .map((e) => e.snapshot.providerSessionId);
  }

  async create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    this.calls.push({ op: 'create', request });
    this.throwIfFailing('create');
    const id =
      this.instanceId === undefined ? `fake-${++this.counter}` : `fake-${this.instanceId}-${++this.counter}`;
    const now = this.clock.now();
    const snapshot: ProviderSessionSnapshot = {
      providerSessionId: id,
      providerProjectId: request.providerProjectId,
      status: 'RUNNING',
      connectUrl: `wss://fake.invalid/connect/${id}`,
      seleniumRemoteUrl: `https://fake.invalid/webdriver/${id}`,
      startedAt: now,
      endedAt: null,
      expiresAt: new Date(now.getTime() + request.timeoutSec * 1000),
      ...(this.instanceId === undefined ? {} : { instanceId: this.instanceId }),
    };
    this.browsers.set(id, { snapshot, logs: [], request });
    return snapshot;
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    this.calls.push({ op: 'get', providerSessionId });
    this.throwIfFailing('get');
    return this.browsers.get(providerSessionId)?.snapshot ?? null;
  }

  async release(
    providerSessionId: string,
    providerProjectId?: string,
  ): Promise<ProviderSessionSnapshot | null> {
    this.calls.push({ op: 'release', providerSessionId, providerProjectId });
    this.throwIfFailing('release');
    if (!this.browsers.has(providerSessionId)) return null;
    const entry = this.browsers.get(providerSessionId)!;
    if (entry.snapshot.status === 'RUNNING' || entry.snapshot.status === 'PENDING')
      this.setStatus(providerSessionId, 'COMPLETED');
    return entry.snapshot;
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    this.calls.push({ op: 'logs', providerSessionId });
    this.throwIfFailing('logs');
    return [...(this.browsers.get(providerSessionId)?.logs ?? [])];
  }

  /** Sets the bytes `downloads` answers for a session (a zip, as far as the test cares). */
  setDownloads(providerSessionId: string, archive: Uint8Array): void {
    this.archives.set(providerSessionId, archive);
  }

  /**
   * The bytes `setDownloads` gave the session, in two chunks (so a reader sees a stream), none when
   * not set; null for a session it does not know (past retention, as a real provider would say).
   */
  async downloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    this.calls.push({ op: 'downloads', providerSessionId });
    this.throwIfFailing('downloads');
    if (!this.browsers.has(providerSessionId)) return null;
    const archive = this.archives.get(providerSessionId) ?? new Uint8Array();
    const half = Math.floor(archive.length / 2);
    return (async function* () {
      if (archive.length > 0) yield archive.subarray(0, half);
      if (archive.length > 0) yield archive.subarray(half);
    })();
  }

  /**
   * Recordings of the sessions it knows, unless created with `record: false`: `RECORDING` while the
   * session runs, `READY` once it ended, with one tab (`0`) whose video files are a few bytes each
   * (`FAKE_RECORDING_FILES`).
   */
  readonly recording: RecordingCapability = {
    retentionDays: 7,
    recording: async (providerSessionId) => {
      const entry = this.browsers.get(providerSessionId);
      if (!entry || entry.request.record === false) return null;
      const { snapshot } = entry;
      const ended = snapshot.status !== 'RUNNING' && snapshot.status !== 'PENDING';
      const page = {
        pageId: '0',
        url: 'about:blank',
        title: '',
        startTimeMs: snapshot.startedAt.getTime(),
        endTimeMs: ended ? (snapshot.endedAt ?? this.clock.now()).getTime() : null,
        width: 1280,
        height: 720,
        frames: 1,
        bytes: 100,
      };
      const recording: StoredRecording = {
        state: ended ? 'READY' : 'RECORDING',
        bytes: 100,
        capped: false,
        pages: [page],
        error: null,
        completedAt: ended ? (snapshot.endedAt ?? this.clock.now()) : null,
        downloadsRequested: this.downloadsRequested.has(providerSessionId),
      };
      return recording;
    },
    file: async (providerSessionId, pageId, file: RecordingFile) => {
      const known = this.browsers.get(providerSessionId);
      const bytes = FAKE_RECORDING_FILES[file];
      return known && pageId === '0' && bytes !== undefined
        ? Uint8Array.from(bytes, (c) => c.charCodeAt(0))
        : null;
    },
    requestDownloads: async (providerSessionId) => {
      this.downloadsRequested.add(providerSessionId);
    },
  };

  private readonly downloadsRequested = new Set<string>();

  /**
   * A HAR of no requests for a session it knows (`_ended` once the session has), null for one it
   * does not (past retention, as a real provider would say).
   */
  async har(providerSessionId: string, options: { sensitive: boolean }): Promise<HarDocument | null> {
    this.calls.push({ op: 'har', providerSessionId, sensitive: options.sensitive });
    this.throwIfFailing('har');
    const entry = this.browsers.get(providerSessionId);
    if (!entry) return null;
    const creator = { name: 'fake', version: '1' };
    return {
      log: {
        version: '1.2',
        creator,
        pages: [],
        entries: [],
        _capped: false,
        _ended: entry.snapshot.status !== 'RUNNING',
      },
    };
  }

  /**
   * Reads the whole file (its errors reach the caller) and keeps it under `uploads`; null for a
   * session it does not know or that has ended. The path is `/fake/uploads/<id>/<name>`.
   */
  async upload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    this.calls.push({ op: 'upload', providerSessionId, name: file.name });
    this.throwIfFailing('upload');
    const entry = this.browsers.get(providerSessionId);
    if (!entry || (entry.snapshot.status !== 'RUNNING' && entry.snapshot.status !== 'PENDING')) return null;
    const chunks: Uint8Array[] = [];
    for await (const chunk of file.content) chunks.push(chunk);
    const bytes = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    const files = this.uploads.get(providerSessionId) ?? [];
    files.push({ name: file.name, bytes });
    this.uploads.set(providerSessionId, files);
    return { name: file.name, size: bytes.length, path: `/fake/uploads/${providerSessionId}/${file.name}` };
  }

  private contextInUse(projectId: string, contextId: string): boolean {
    return [...this.browsers.values()].some(
      ({ snapshot, request }) =>
        (snapshot.status === 'RUNNING' || snapshot.status === 'PENDING') &&
        request.projectId === projectId &&
        request.contextId === contextId &&
        request.contextPersist,
    );
  }

  private throwIfFailing(op: FakeProviderCall['op']): void {
    const index = this.failures.findIndex((f) => f.op === op || f.op === 'any');
    if (index === -1) return;
    const [failure] = this.failures.splice(index, 1);
    throw failure!.error;
  }
}

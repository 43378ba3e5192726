import type { BrowserContextStore } from '../contexts/BrowserContextStore.ts';
import type { ProviderLiveUrls } from './ProviderLiveUrls.ts';

/** A file put where the session's page can take it (`setInputFiles`). */
export interface UploadedSessionFile {
  readonly name: string;
  readonly size: number;
  /** Where the browser sees it: the path to hand to `setInputFiles` / `DOM.setFileInputFiles`. */
  readonly path: string;
}

/** A session's files: what its browser downloaded, and files put where its page can take them. */
export interface FilesCapability {
  /**
   * The files the session's browser downloaded, as one zip, streamed; null when the provider no
   * longer has them (unknown session, or past the retention period).
   */
  downloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null>;
  /**
   * Stores one file where the session's page may take it (`setInputFiles`); null when the provider no
   * longer knows the session. Fails with `payload_too_large` past the provider's size limit.
   */
  upload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null>;
}

/**
 * A provider's own store of extensions, when its browsers load only extensions uploaded to it
 * (Browserbase): an upload to a project is then also uploaded there, and sessions name the
 * provider's id (`SessionExtension.providerExtensionId`). Absent: the provider loads the zip itself.
 */
export interface ExtensionsCapability {
  /** Uploads an extension zip (already checked) under `fileName`; answers the provider's id for it. */
  upload(archive: Uint8Array, fileName: string): Promise<string>;
  /** Deletes one; an id the provider no longer knows is not an error. */
  delete(providerExtensionId: string): Promise<void>;
}

/**
 * The provider's own live view of a running session (Browserbase): its URLs, passed through to
 * clients. Absent: Browserdeck serves the live view itself, over CDP (http-api.md §14).
 */
export interface LiveViewCapability {
  /** The session's live-view URLs; null when the provider no longer knows the session. */
  liveUrls(providerSessionId: string): Promise<ProviderLiveUrls | null>;
}

/** A HAR 1.2 document (`{ log: { version, creator, pages, entries } }`), as the provider built it. */
export interface HarDocument {
  readonly log: Readonly<Record<string, unknown>>;
}

/**
 * A session's network as HAR 1.2 (SPEC §18), read on any instance, during the session and after it:
 * the provider captures the requests of every tab itself (local, Selenium Grid). Absent: the
 * provider's sessions have no capture (Browserbase).
 */
export interface NetworkCapability {
  /**
   * Every request of every tab so far; `Authorization`, `Cookie` and `Set-Cookie` values redacted
   * unless `sensitive`, proxy credentials never. Null when no capture of the session is kept (made
   * before capture, switched off, or past the retention).
   */
  har(providerSessionId: string, options: { sensitive: boolean }): Promise<HarDocument | null>;
}

/**
 * Where a session's recording is (SPEC §18): `RECORDING` while its frames are written, `PROCESSING`
 * while its videos are made, `READY` once they are, `FAILED` when they could not be made.
 */
export type RecordingState = 'RECORDING' | 'PROCESSING' | 'READY' | 'FAILED';

/** One tab of a recording: its video's page. Times are ms since the epoch. */
export interface RecordedPage {
  /** The tab's number in the session (`0`, `1`… as the session's logs number pages), as text. */
  readonly pageId: string;
  /** The tab's last URL and title. */
  readonly url: string;
  readonly title: string;
  /** The moment of the tab's first frame: its video's 0 s (when it opened, before any frame). */
  readonly startTimeMs: number;
  /** Null while the tab is recorded. */
  readonly endTimeMs: number | null;
  /** The video's size (the frames' size until it is made). */
  readonly width: number;
  readonly height: number;
  readonly frames: number;
  /** Bytes of the frames kept. */
  readonly bytes: number;
}

/** A session's recording as stored, read on any instance. */
export interface StoredRecording {
  readonly state: RecordingState;
  /** Bytes of every tab's frames. */
  readonly bytes: number;
  /** The per-session bound stopped the recording: what came later is not in it. */
  readonly capped: boolean;
  readonly pages: readonly RecordedPage[];
  /** Why the videos could not be made (`FAILED`). */
  readonly error: string | null;
  /** When the videos were made (`READY`). */
  readonly completedAt: Date | null;
  /** Whether a client asked for the MP4 downloads (Browserbase's `recording.downloads.create`). */
  readonly downloadsRequested: boolean;
}

/** A file of a tab's video: the MP4, the HLS playlist, or one of its segments (`seg_000.ts`…). */
export type RecordingFile = 'video.mp4' | 'index.m3u8' | `seg_${string}.ts`;

/**
 * Sessions' recordings (SPEC §18): one video per tab from screencast frames, made once the session
 * ends, stored where any instance reads them. Absent: the provider does not record (Browserbase's
 * own recording is its business).
 */
export interface RecordingCapability {
  /** Days a recording is kept after its session ended; older ones are `EXPIRED`. */
  readonly retentionDays: number;
  /** The session's recording; null when none is kept (not recorded, or past the retention). */
  recording(providerSessionId: string): Promise<StoredRecording | null>;
  /** The bytes of one file of a tab's video; null when there is no such file. */
  file(providerSessionId: string, pageId: string, file: RecordingFile): Promise<Uint8Array | null>;
  /** Notes that a client asked for the downloads (what Browserbase's download list then says). */
  requestDownloads(providerSessionId: string): Promise<void>;
}

/** Bytes a provider metered for one session since it was last asked. */
export interface ProxyBytesDelta {
  readonly providerSessionId: string;
  readonly bytes: number;
}

/**
 * Proxy bytes (in and out) a provider meters itself (local: at the egress proxy). A provider that
 * reports `proxyBytes` on its snapshots instead (Browserbase) has no such capability.
 */
export interface ProxyMeteringCapability {
  /** What was metered for each session since the last call. */
  take(): readonly ProxyBytesDelta[];
}

/** Where a provider's browsers are: in one process (`local`, the Grid's timers) or anywhere. */
export interface PlacementCapability {
  /**
   * The id every snapshot the provider hands out carries, stored with the session. A session stored
   * with another instance's id is out of this provider's reach: it is neither asked about nor taken
   * as gone (`sessionReach`).
   */
  readonly instanceId: string;
  /**
   * True when calls about sessions another live instance holds are carried to that instance (the
   * composition's instance routing): such sessions are then in reach like this instance's own, and
   * `instanceId` only says which instance a new session's browser is on.
   */
  readonly reachesOtherInstances: boolean;
}

/**
 * What a provider's sessions can be created with, where it cannot take everything: a create asking
 * for what it refuses is `unsupported_option`, never run without it. Absent: it takes everything
 * (which proxy entry types it honours is still its own to check at create).
 */
export interface AcceptsCapability {
  /** False: it cannot load browser extensions (a create naming an `extensionId` is refused). */
  readonly extensions: boolean;
  /** With `extensions` false: what would let it (e.g. what to install), added to the refusal. */
  readonly extensionsHint?: string | undefined;
  /** False: it cannot route a session's traffic through upstream proxies (any but `none`). */
  readonly proxies: boolean;
}

/**
 * A provider's optional features, each a named capability object in one style: present when the
 * provider has it, absent when not. Wrappers (instrumentation, instance routing) wrap them by name.
 */
export interface ProviderCapabilities {
  readonly files?: FilesCapability | undefined;
  /** The provider's browser contexts (stored profiles). */
  readonly contexts?: BrowserContextStore | undefined;
  readonly extensions?: ExtensionsCapability | undefined;
  readonly liveView?: LiveViewCapability | undefined;
  readonly network?: NetworkCapability | undefined;
  readonly recording?: RecordingCapability | undefined;
  readonly proxyMetering?: ProxyMeteringCapability | undefined;
  readonly placement?: PlacementCapability | undefined;
  readonly accepts?: AcceptsCapability | undefined;
}

import type { Clock, SessionLogEntry } from '@browserdeck/domain';
import type { CdpClient } from '../CdpClient.ts';
import type { CdpEvent } from '../cdpMessages.ts';
import { HAR_CDP_EVENTS } from '../network/harOfCapture.ts';
import type { NetworkCapture } from '../network/NetworkCapture.ts';
import type { ScreencastRecording } from '../recording/ScreencastRecording.ts';
import { type BoundedLogs, SessionLogBuffer, type SessionLogLimits } from './SessionLogBuffer.ts';

/** CDP events recorded as session logs. `Network.responseReceived` is stored as a response. */
export const RECORDED_CDP_EVENTS: readonly string[] = [
  'Runtime.consoleAPICalled',
  'Runtime.exceptionThrown',
  'Log.entryAdded',
  'Network.requestWillBeSent',
  'Network.responseReceived',
  'Network.loadingFailed',
];

/**
 * Requests no page may make (failed with `AccessDenied`): `file:` URLs, which the egress proxy
 * never sees. The confinement already limits them to the browser's own view; this is a second belt.
 * Network destinations are the egress proxy's business (see `EgressProxy`).
 */
export const BLOCKED_URL_PATTERNS: ReadonlyArray<{ urlPattern: string }> = [{ urlPattern: 'file:*' }];

/** A request an egress proxy refused, as recorded (the local provider's `EgressRefusal`). */
export interface RecordedEgressRefusal {
  readonly host: string;
  readonly port: number;
  readonly address?: string | undefined;
  readonly reason: string;
}

/** The log `method` of a request the egress proxy refused. */
export const EGRESS_REFUSED_METHOD = 'Browserdeck.egressRefused';

/**
 * What each tab's screencast asks of the browser for a recording (SPEC §18): JPEG frames, at most
 * 1280 px a side. The browser sends a frame only when the page changed, and the next one only once
 * the last is acknowledged: `captureVideo`'s frame-rate cap is when it acknowledges.
 */
export const RECORDING_SCREENCAST = { format: 'jpeg', quality: 70, maxWidth: 1280, maxHeight: 1280 } as const;

/** The log `method` of a browser the provider or the kernel killed at one of its limits (`limits/`). */
export const BROWSER_KILLED_METHOD = 'Browserdeck.browserKilled';

/**
 * Records a browser's console, exception, log and network events in Browserbase's log shape, into a
 * byte-bounded buffer (`SessionLogBuffer`: entries cut to size, the oldest dropped past the budget).
 * It auto-attaches (flat mode) to every page, enables Runtime, Network and Log there (and fails the
 * requests of `BLOCKED_URL_PATTERNS`), and lets the page run. Pages are numbered 0, 1, 2… in the
 * order they appear.
 */
export class SessionLogRecorder {
  private cdpClient: CdpClient | null = null;
  private readonly clock: Clock;
  private readonly buffer: SessionLogBuffer;
  private readonly pageIds = new Map<string, number>();
  private readonly pageOfSession = new Map<string, number>();
  private network: NetworkCapture | null = null;
  private video: { recording: ScreencastRecording; minFrameGapMs: number } | null = null;
  private readonly targetOfSession = new Map<string, string>();
  /** When each tab's last frame was acknowledged (the frame-rate cap). */
  private readonly lastAck = new Map<string, number>();

  constructor(deps: { clock: Clock; limits: SessionLogLimits }) {
    this.clock = deps.clock;
    this.buffer = new SessionLogBuffer(deps.limits);
  }

  private get cdp(): CdpClient {
    if (!this.cdpClient) throw new Error('The recorder has not started');
    return this.cdpClient;
  }

  /** Starts auto-attaching to pages, existing and new (which wait for us before they run). */
  async start(cdp: CdpClient): Promise<void> {
    this.cdpClient = cdp;
    cdp.onEvent((event) => this.onEvent(event));
    await cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    });
  }

  /** The recorded entries, oldest first (after one saying how many the budget dropped, if any). */
  entries(): SessionLogEntry[] {
    return this.buffer.entries();
  }

  /** The recorded entries and their size as JSON bytes, for the archive of ended sessions. */
  snapshot(): BoundedLogs {
    return this.buffer.snapshot();
  }

  /**
   * Records a request the egress proxy refused (`Browserdeck.egressRefused`, page -1: the proxy
   * does not know which page asked), with the destination and the reason.
   */
  recordEgressRefusal(refusal: RecordedEgressRefusal): void {
    this.recordServiceEvent(EGRESS_REFUSED_METHOD, {
      host: refusal.host,
      port: refusal.port,
      address: refusal.address ?? null,
      reason: refusal.reason,
    });
  }

  /**
   * Records something the service did to the browser (page -1), such as `BROWSER_KILLED_METHOD`
   * with `{ reason: 'memory_limit', limitBytes }`.
   */
  recordServiceEvent(method: string, params: Record<string, unknown>): void {
    const timestamp = this.clock.now().getTime();
    this.buffer.push({ timestamp, method, pageId: -1, request: { timestamp, params } });
  }

  /**
   * Hands the network events a HAR is made of (`HAR_CDP_EVENTS`) to `capture` from now on, each
   * with its page's number; null stops that.
   */
  captureNetwork(capture: NetworkCapture | null): void {
    this.network = capture;
  }

  /**
   * Records every tab's screencast into `recording` from now on (tabs open already and new ones), at
   * most `maxFps` frames a second per tab; null stops the screencasts.
   */
  captureVideo(recording: ScreencastRecording | null, maxFps = 10): void {
    const previous = this.video;
    this.video = recording ? { recording, minFrameGapMs: 1000 / maxFps } : null;
    for (const [sessionId, pageId] of this.pageOfSession) {
      if (recording) this.startScreencast(sessionId, pageId, recording);
      else if (previous) this.cdp.fire('Page.stopScreencast', {}, sessionId);
    }
  }

  /** Forgets what was recorded so far (a warm browser handed to a new session starts empty). */
  clear(): void {
    this.buffer.clear();
  }

  private onEvent(event: CdpEvent): void {
    if (event.method === 'Target.attachedToTarget') {
      this.onAttached(event.params);
      return;
    }
    if (event.method === 'Fetch.requestPaused' && event.sessionId) {
      this.cdp.fire(
        'Fetch.failRequest',
        { requestId: event.params.requestId, errorReason: 'AccessDenied' },
        event.sessionId,
      );
      return;
    }
    if (event.method === 'Target.detachedFromTarget') {
      const sessionId = String(event.params.sessionId);
      const pageId = this.pageOfSession.get(sessionId);
      if (pageId !== undefined) this.video?.recording.tabClosed(String(pageId), this.clock.now().getTime());
      this.pageOfSession.delete(sessionId);
      this.targetOfSession.delete(sessionId);
      this.lastAck.delete(sessionId);
      return;
    }
    if (!event.sessionId) return;
    const pageId = this.pageOfSession.get(event.sessionId);
    if (pageId === undefined) return;
    if (event.method.startsWith('Page.')) this.onPageEvent(event, event.sessionId, pageId);
    if (this.network && HAR_CDP_EVENTS.includes(event.method))
      this.network.push({ tab: pageId, method: event.method, params: event.params });
    if (RECORDED_CDP_EVENTS.includes(event.method)) this.record(event, pageId);
  }

  private onAttached(params: Record<string, unknown>): void {
    const sessionId = String(params.sessionId);
    const info = params.targetInfo as { targetId: string; type: string };
    if (info.type === 'page') {
      let pageId = this.pageIds.get(info.targetId);
      if (pageId === undefined) {
        pageId = this.pageIds.size;
        this.pageIds.set(info.targetId, pageId);
      }
      this.pageOfSession.set(sessionId, pageId);
      this.targetOfSession.set(sessionId, info.targetId);
      // Commands on one session run in order: the domains are on before the page runs.
      this.cdp.fire('Runtime.enable', {}, sessionId);
      this.cdp.fire('Network.enable', {}, sessionId);
      this.cdp.fire('Log.enable', {}, sessionId);
      // Page events (navigations, load) place a HAR's requests in its pages.
      this.cdp.fire('Page.enable', {}, sessionId);
      this.cdp.fire('Fetch.enable', { patterns: BLOCKED_URL_PATTERNS }, sessionId);
      if (this.video) this.startScreencast(sessionId, pageId, this.video.recording, params.targetInfo);
      this.cdp.fire('Runtime.runIfWaitingForDebugger', {}, sessionId);
      return;
    }
    // Workers and other targets: let them run, and leave them to the user's client. The detach waits
    // for the run's answer: sent at once behind it, it cancels the run, and a service worker (an
    // extension's) stays paused before its script for good.
    void this.cdp
      .send('Runtime.runIfWaitingForDebugger', {}, sessionId)
      .catch(() => {})
      .then(() => this.cdp.fire('Target.detachFromTarget', { sessionId }));
  }

  private startScreencast(
    sessionId: string,
    pageId: number,
    recording: ScreencastRecording,
    targetInfo?: unknown,
  ): void {
    const info = (targetInfo ?? {}) as { url?: string; title?: string };
    recording.tabOpened(
      String(pageId),
      { url: info.url ?? '', title: info.title ?? '' },
      this.clock.now().getTime(),
    );
    if (targetInfo === undefined) this.refreshTabInfo(sessionId, pageId);
    this.cdp.fire('Page.startScreencast', RECORDING_SCREENCAST, sessionId);
  }

  /**
   * A tab's page events for its recording: each screencast frame kept and acknowledged (no sooner
   * than the frame-rate cap allows: the browser sends nothing more until then), and its URL and
   * title as it navigates and loads.
   */
  private onPageEvent(event: CdpEvent, sessionId: string, pageId: number): void {
    const { params } = event;
    if (event.method === 'Page.screencastFrame') {
      const ack = () => this.cdp.fire('Page.screencastFrameAck', { sessionId: params.sessionId }, sessionId);
      const video = this.video;
      if (!video) {
        ack();
        return;
      }
      const metadata = (params.metadata ?? {}) as {
        timestamp?: number;
        deviceWidth?: number;
        deviceHeight?: number;
      };
      const now = this.clock.now().getTime();
      video.recording.frame(String(pageId), {
        jpeg: Buffer.from(String(params.data), 'base64'),
        timestampMs: typeof metadata.timestamp === 'number' ? metadata.timestamp * 1000 : now,
        width: Math.round(metadata.deviceWidth ?? 0),
        height: Math.round(metadata.deviceHeight ?? 0),
      });
      const wait = (this.lastAck.get(sessionId) ?? Number.NEGATIVE_INFINITY) + video.minFrameGapMs - now;
      this.lastAck.set(sessionId, Math.max(now, now + wait));
      if (wait <= 0) ack();
      else setTimeout(ack, wait).unref();
      return;
    }
    if (!this.video) return;
    if (event.method === 'Page.frameNavigated') {
      const frame = params.frame as { parentId?: string; url?: string } | undefined;
      if (frame && !frame.parentId) this.video.recording.tabInfo(String(pageId), { url: frame.url });
    } else if (event.method === 'Page.loadEventFired' || event.method === 'Page.domContentEventFired') {
      this.refreshTabInfo(sessionId, pageId);
    }
  }

  /** Reads the tab's URL and title from the browser (no script in the page) for its recording. */
  private refreshTabInfo(sessionId: string, pageId: number): void {
    const targetId = this.targetOfSession.get(sessionId);
    if (!targetId) return;
    this.cdp
      .send('Target.getTargetInfo', { targetId })
      .then((result) => {
        const info = (result as { targetInfo?: { url?: string; title?: string } }).targetInfo;
        if (info) this.video?.recording.tabInfo(String(pageId), { url: info.url, title: info.title });
      })
      .catch(() => {});
  }

  private record(event: CdpEvent, pageId: number): void {
    const params = event.params;
    const timestamp = this.clock.now().getTime();
    const frameId = typeof params.frameId === 'string' ? params.frameId : undefined;
    const loaderId = typeof params.loaderId === 'string' ? params.loaderId : undefined;
    const entry: SessionLogEntry =
      event.method === 'Network.responseReceived'
        ? { timestamp, method: event.method, pageId, response: { timestamp, result: params } }
        : { timestamp, method: event.method, pageId, request: { timestamp, params } };
    this.buffer.push({
      ...entry,
      ...(frameId === undefined ? {} : { frameId }),
      ...(loaderId === undefined ? {} : { loaderId }),
    });
  }
}

import type { Clock, SessionLogEntry } from '@browserdeck/domain';
import type { CdpClient } from '../CdpClient.ts';
import type { CdpEvent } from '../cdpMessages.ts';
import { HAR_CDP_EVENTS } from '../network/harOfCapture.ts';
import type { NetworkCapture } from '../network/NetworkCapture.ts';
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
      this.pageOfSession.delete(String(event.params.sessionId));
      return;
    }
    if (!event.sessionId) return;
    const pageId = this.pageOfSession.get(event.sessionId);
    if (pageId === undefined) return;
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
      // Commands on one session run in order: the domains are on before the page runs.
      this.cdp.fire('Runtime.enable', {}, sessionId);
      this.cdp.fire('Network.enable', {}, sessionId);
      this.cdp.fire('Log.enable', {}, sessionId);
      // Page events (navigations, load) place a HAR's requests in its pages.
      this.cdp.fire('Page.enable', {}, sessionId);
      this.cdp.fire('Fetch.enable', { patterns: BLOCKED_URL_PATTERNS }, sessionId);
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

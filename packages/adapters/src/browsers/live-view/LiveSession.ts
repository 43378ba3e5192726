import type { Logger } from '@browserdeck/domain';
import type { RawData } from 'ws';
import type { CdpClient } from '../cdp/CdpClient.ts';
import type { CdpEvent } from '../cdp/cdpMessages.ts';
import type { CdpCapability } from '../ProviderCapabilities.ts';
import { forwardViewerInput } from './forwardViewerInput.ts';
import { type LiveViewer, VIEWER_CLOSE } from './LiveViewer.ts';
import type { LivePage } from './LiveViewHub.ts';
import { openCdpClient } from './openCdpClient.ts';
import { parseViewerMessage } from './parseViewerMessage.ts';
import { TabScreencasts } from './TabScreencasts.ts';
import { type TargetInfo, toLivePage } from './toLivePage.ts';

/**
 * How often the tab list is read again: Chrome reports a tab's URL as it navigates but not the title
 * its page sets afterwards.
 */
const PAGES_REFRESH_MS = 1_000;

/**
 * Why a live session stops: its browser session ended, its last viewer left, the hub closes, or
 * the browser did not answer as a browser does.
 */
type Finish = 'ended' | 'idle' | 'shutdown' | 'failed';

/**
 * The live view of one browser session: one CDP connection (through the provider's `cdp`
 * capability) while it has viewers, the session's page targets (`Target.setDiscoverTargets`), one
 * `TabScreencast` per watched tab, and the viewers. Tab list changes are pushed to every viewer.
 * When the browser session ends, every viewer gets `{ type: 'ended' }` and a 1001 close.
 */
export class LiveSession {
  readonly providerSessionId: string;
  private client: CdpClient | null = null;
  private state: 'opening' | 'open' | 'done' = 'opening';
  private readonly opening: Promise<boolean>;
  private readonly pages = new Map<string, LivePage>();
  private readonly tabs: TabScreencasts;
  private readonly viewers = new Set<LiveViewer>();
  /** The tab each viewer asked for before the connection was open. */
  private readonly wanted = new Map<LiveViewer, string | null>();
  private pagesPushPending = false;
  private refresh: NodeJS.Timeout | null = null;
  private readonly logger: Logger;
  private readonly onDone: (session: LiveSession) => void;

  constructor(deps: {
    providerSessionId: string;
    cdp: CdpCapability;
    logger: Logger;
    /** See `TabScreencast`'s `minFrameIntervalMs`. */
    minFrameIntervalMs?: number | undefined;
    /** Called once when it stops, so the hub forgets it. */
    onDone: (session: LiveSession) => void;
  }) {
    this.providerSessionId = deps.providerSessionId;
    this.logger = deps.logger;
    this.tabs = new TabScreencasts({ logger: deps.logger, minFrameIntervalMs: deps.minFrameIntervalMs });
    this.onDone = deps.onDone;
    this.opening = this.open(deps.cdp);
  }

  /** Resolves true once the connection is open and the tabs are known; false when it never opens. */
  ready(): Promise<boolean> {
    return this.opening;
  }

  /** The session's tabs, in the order they were found. */
  listPages(): LivePage[] {
    return [...this.pages.values()];
  }

  /** True once it has stopped: a new viewer needs a new live session. */
  get done(): boolean {
    return this.state === 'done';
  }

  /** Serves a viewer until it or the session goes away; `pageId` is the tab it asked for. */
  addViewer(viewer: LiveViewer, pageId: string | null): void {
    if (this.state === 'done') {
      viewer.sendEnded();
      return;
    }
    this.viewers.add(viewer);
    viewer.ws.on('message', (data, isBinary) => this.onMessage(viewer, data, isBinary));
    viewer.ws.on('close', () => this.removeViewer(viewer));
    viewer.ws.on('error', () => viewer.ws.terminate());
    if (this.state === 'open') this.place(viewer, pageId);
    else this.wanted.set(viewer, pageId);
  }

  /** Stops: screencasts stopped, the connection closed, the viewers told why and closed. */
  finish(reason: Finish): void {
    if (this.state === 'done') return;
    this.state = 'done';
    this.onDone(this);
    if (this.refresh) clearInterval(this.refresh);
    this.tabs.stopAll();
    for (const viewer of this.viewers) {
      if (reason === 'ended') viewer.sendEnded();
      else if (reason === 'failed') viewer.close(VIEWER_CLOSE.failed, 'The browser did not answer.');
      else viewer.close(VIEWER_CLOSE.goingAway, 'The server is shutting down.');
    }
    this.viewers.clear();
    this.wanted.clear();
    this.client?.close();
  }

  private async open(cdp: CdpCapability): Promise<boolean> {
    let client: CdpClient | null = null;
    try {
      client = await openCdpClient(cdp, this.providerSessionId, {
        onEvent: (event) => this.onEvent(event),
        onClose: () => this.finish('ended'),
      });
      if (!client) {
        this.finish('ended');
        return false;
      }
      if (this.state === 'done') {
        client.close();
        return false;
      }
      this.client = client;
      await client.send('Target.setDiscoverTargets', { discover: true });
      await this.readPages(client);
    } catch (error) {
      if (this.state !== 'done' && !client?.isClosed)
        this.logger.warn({ err: error }, 'live view: could not open the session browser');
      this.finish(client?.isClosed === false ? 'failed' : 'ended');
      return false;
    }
    if (this.done) return false;
    this.state = 'open';
    if (this.viewers.size === 0) {
      this.finish('idle');
      return false;
    }
    for (const [viewer, pageId] of this.wanted) this.place(viewer, pageId);
    this.wanted.clear();
    this.refresh = setInterval(() => void this.readPages(client).catch(() => {}), PAGES_REFRESH_MS);
    this.refresh.unref();
    return true;
  }

  private async readPages(client: CdpClient): Promise<void> {
    const { targetInfos } = await client.send('Target.getTargets');
    for (const info of Array.isArray(targetInfos) ? (targetInfos as TargetInfo[]) : []) this.upsert(info);
  }

  /** Shows a viewer the tab it asked for, or else the first tab, and tells it the tab list. */
  private place(viewer: LiveViewer, pageId: string | null): void {
    const first = this.pages.keys().next();
    this.show(viewer, pageId !== null && this.pages.has(pageId) ? pageId : first.done ? null : first.value);
  }

  /** Tells a viewer which tab it now watches, then moves it there (so it knows the frames that follow). */
  private show(viewer: LiveViewer, pageId: string | null): void {
    viewer.sendPages(this.listPages(), pageId);
    this.tabs.watch(viewer, pageId, this.client);
  }

  private removeViewer(viewer: LiveViewer): void {
    if (!this.viewers.delete(viewer)) return;
    this.wanted.delete(viewer);
    this.tabs.leave(viewer);
    if (this.viewers.size === 0 && this.state === 'open') this.finish('idle');
  }

  private onMessage(viewer: LiveViewer, data: RawData, isBinary: boolean): void {
    const message = isBinary ? null : parseViewerMessage(String(data));
    if (!message) {
      viewer.close(VIEWER_CLOSE.policy, 'Not a live view message.');
      return;
    }
    if (this.state !== 'open') {
      if (message.type === 'select' && this.wanted.has(viewer)) this.wanted.set(viewer, message.pageId);
      return;
    }
    if (message.type === 'select') {
      if (this.pages.has(message.pageId)) this.show(viewer, message.pageId);
      else viewer.sendPages(this.listPages());
      return;
    }
    if (!viewer.readOnly) forwardViewerInput(this.client, this.tabs.forPage(viewer.pageId), message);
  }

  private onEvent(event: CdpEvent): void {
    const { method, params } = event;
    if (method === 'Page.screencastFrame') {
      if (event.sessionId !== undefined) this.tabs.forSession(event.sessionId)?.onFrame(params);
    } else if (method === 'Target.targetCreated' || method === 'Target.targetInfoChanged') {
      this.upsert(params.targetInfo as TargetInfo | undefined);
    } else if (method === 'Target.targetDestroyed') {
      this.dropPage(params.targetId);
    } else if (method === 'Target.detachedFromTarget') {
      this.onDetached(params.sessionId);
    }
  }

  private upsert(info: TargetInfo | undefined): void {
    const page = toLivePage(info);
    if (!page) return;
    const known = this.pages.get(page.id);
    if (known && known.url === page.url && known.title === page.title) return;
    this.pages.set(page.id, page);
    if (this.state !== 'open') return;
    // A viewer of a browser that had no tab is shown the first one to open.
    if (!known) for (const viewer of this.viewers) if (viewer.pageId === null) this.show(viewer, page.id);
    this.pushPages();
  }

  private dropPage(targetId: unknown): void {
    if (typeof targetId !== 'string' || !this.pages.delete(targetId)) return;
    const tab = this.tabs.forPage(targetId);
    if (tab) {
      this.tabs.stop(tab);
      for (const viewer of tab.viewers) this.showFirstTab(viewer);
    }
    this.pushPages();
  }

  /** A tab's session went away without us (its renderer crashed, say): its viewers start again. */
  private onDetached(sessionId: unknown): void {
    if (typeof sessionId !== 'string') return;
    const tab = this.tabs.forSession(sessionId);
    if (!tab || this.state !== 'open') return;
    this.tabs.stop(tab);
    for (const viewer of tab.viewers) {
      viewer.pageId = null;
      if (this.pages.has(tab.pageId)) this.tabs.watch(viewer, tab.pageId, this.client);
      else this.showFirstTab(viewer);
    }
  }

  private showFirstTab(viewer: LiveViewer): void {
    viewer.pageId = null;
    const first = this.pages.keys().next();
    this.show(viewer, first.done ? null : first.value);
  }

  /** Sends the tab list to every viewer once the events of this turn are in. */
  private pushPages(): void {
    if (this.pagesPushPending) return;
    this.pagesPushPending = true;
    setImmediate(() => {
      this.pagesPushPending = false;
      if (this.state !== 'open') return;
      const pages = this.listPages();
      for (const viewer of this.viewers) viewer.sendPages(pages);
    });
  }
}

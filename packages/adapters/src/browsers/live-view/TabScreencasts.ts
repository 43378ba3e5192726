import type { Logger } from '@browserdeck/domain';
import type { CdpClient } from '../cdp/CdpClient.ts';
import type { LiveViewer } from './LiveViewer.ts';
import { TabScreencast } from './TabScreencast.ts';

/**
 * The screencasts of one live session's watched tabs, found by page id and by the CDP session
 * attached to their tab. A tab's screencast starts with its first viewer and stops with its last.
 */
export class TabScreencasts {
  /** Screencasts by page id. */
  private readonly tabs = new Map<string, TabScreencast>();
  /** Screencasts by the CDP session attached to their tab. */
  private readonly attached = new Map<string, TabScreencast>();
  private readonly logger: Logger;
  private readonly minFrameIntervalMs: number | undefined;

  constructor(deps: {
    logger: Logger;
    /** See `TabScreencast`'s `minFrameIntervalMs`. */
    minFrameIntervalMs?: number | undefined;
  }) {
    this.logger = deps.logger;
    this.minFrameIntervalMs = deps.minFrameIntervalMs;
  }

  /** The screencast of a tab, if someone watches it. */
  forPage(pageId: string | null): TabScreencast | undefined {
    return pageId === null ? undefined : this.tabs.get(pageId);
  }

  /** The screencast whose tab this CDP session is attached to. */
  forSession(sessionId: string): TabScreencast | undefined {
    return this.attached.get(sessionId);
  }

  /**
   * Moves a viewer to a tab: the screencast it leaves stops if it was the last viewer. Without a
   * connection (`client` null) the viewer only records the tab.
   */
  watch(viewer: LiveViewer, pageId: string | null, client: CdpClient | null): void {
    const previous = this.forPage(viewer.pageId);
    if (previous?.viewers.has(viewer) && viewer.pageId === pageId) return;
    if (previous?.removeViewer(viewer)) this.stop(previous);
    viewer.pageId = pageId;
    if (pageId === null || !client) return;
    let tab = this.tabs.get(pageId);
    if (!tab) {
      tab = new TabScreencast({
        client,
        pageId,
        logger: this.logger,
        minFrameIntervalMs: this.minFrameIntervalMs,
        attached: (sessionId, t) => {
          if (!t.isStopped) this.attached.set(sessionId, t);
        },
      });
      this.tabs.set(pageId, tab);
      void tab.start();
    }
    tab.addViewer(viewer);
  }

  /** Takes a viewer off the tab it watches; that screencast stops if it was the last viewer. */
  leave(viewer: LiveViewer): void {
    const tab = this.forPage(viewer.pageId);
    if (tab?.removeViewer(viewer)) this.stop(tab);
  }

  /** Stops a tab's screencast and forgets it. */
  stop(tab: TabScreencast): void {
    tab.stop();
    if (this.tabs.get(tab.pageId) === tab) this.tabs.delete(tab.pageId);
    if (tab.sessionId !== null) this.attached.delete(tab.sessionId);
  }

  /** Stops every screencast. */
  stopAll(): void {
    for (const tab of this.tabs.values()) tab.stop();
    this.tabs.clear();
    this.attached.clear();
  }
}

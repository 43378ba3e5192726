import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LivePage, LiveViewerOptions, LiveViewHub } from '../browsers/live-view/LiveViewHub.ts';
import type { InstanceClient } from './InstanceClient.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';
import { INSTANCE_CALLS } from './instanceCalls.ts';

/**
 * This instance's live-view hub, reaching the tabs of sessions other live instances hold: `pages` of
 * such a session asks its holder (`InstanceClient.pages`), null when the holder is silent. Viewers
 * are served by the holder itself: their WebSockets are forwarded to it before they get here.
 */
export class InstanceRoutedLiveViewHub implements LiveViewHub {
  private readonly inner: LiveViewHub;
  private readonly directory: InstanceDirectory;
  private readonly client: InstanceClient;

  constructor(deps: { hub: LiveViewHub; directory: InstanceDirectory; client: InstanceClient }) {
    this.inner = deps.hub;
    this.directory = deps.directory;
    this.client = deps.client;
  }

  async pages(providerSessionId: string): Promise<LivePage[] | null> {
    const holder = await this.directory.liveHolder({ providerSessionId });
    if (!holder) return this.inner.pages(providerSessionId);
    if (!holder.record) return null;
    const params = { provider_session_id: providerSessionId };
    return (await this.client.json(holder.record, INSTANCE_CALLS.pages, { params, query: {} })).pages;
  }

  serveViewer(req: IncomingMessage, socket: Duplex, head: Buffer, options: LiveViewerOptions): void {
    this.inner.serveViewer(req, socket, head, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

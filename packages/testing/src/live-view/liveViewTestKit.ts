import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CdpCapability } from '@browserdeck/adapters';
import type { CdpCommand, LiveViewHub } from '@browserdeck/adapters/live-view';
import type { Browser, Page } from 'playwright-core';
import { LiveViewerClient, type ReceivedFrame } from './LiveViewerClient.ts';

/**
 * A loopback HTTP server whose upgrades to `/live/<providerSessionId>?page=…&readOnly=true` are
 * served by `hub` (no token: the hub's side of the contract only). `viewer(id, query)` connects one.
 */
export async function startViewerServer(hub: LiveViewHub): Promise<{
  url: string;
  viewer(providerSessionId: string, query?: Record<string, string>): Promise<LiveViewerClient>;
  close(): Promise<void>;
}> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/live\/([^/]+)$/.exec(url.pathname);
    if (!match) {
      socket.destroy();
      return;
    }
    hub.serveViewer(req, socket, head, {
      providerSessionId: decodeURIComponent(match[1]!),
      pageId: url.searchParams.get('page'),
      readOnly: url.searchParams.get('readOnly') === 'true',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    viewer: (id, query = {}) =>
      LiveViewerClient.connect(`${url}/live/${encodeURIComponent(id)}?${new URLSearchParams(query)}`),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A `cdp` capability that records every command sent through it, and counts its connections. */
export function recordingCdp(cdp: CdpCapability): {
  cdp: CdpCapability;
  sent: CdpCommand[];
  /** Connections opened, and those still open. */
  connections: { opened: number; open: number };
  count(method: string): number;
} {
  const sent: CdpCommand[] = [];
  const connections = { opened: 0, open: 0 };
  return {
    sent,
    connections,
    count: (method) => sent.filter((c) => c.method === method).length,
    cdp: {
      async open(id, deliver, onClose) {
        const connection = await cdp.open(id, deliver, () => {
          connections.open--;
          onClose();
        });
        if (!connection) return null;
        connections.opened++;
        connections.open++;
        return {
          send: (command) => {
            sent.push(command);
            connection.send(command);
          },
          close: () => connection.close(),
          get isClosed() {
            return connection.isClosed;
          },
        };
      },
    },
  };
}

/** An RGB colour. */
export type Rgb = readonly [number, number, number];

/**
 * Reads the colour of one point of a JPEG frame by decoding it in a page of `browser` (a browser of
 * the test's own, not the one watched).
 */
export async function frameDecoder(
  browser: Browser,
): Promise<(jpeg: Buffer, fx?: number, fy?: number) => Promise<Rgb>> {
  const page: Page = await browser.newPage();
  // A string, not a function: this package's types have no DOM.
  return (jpeg, fx = 0.5, fy = 0.5) =>
    page.evaluate(`(async () => {
      const blob = await (await fetch('data:image/jpeg;base64,${jpeg.toString('base64')}')).blob();
      const bitmap = await createImageBitmap(blob);
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      context.drawImage(bitmap, 0, 0);
      const x = Math.min(bitmap.width - 1, Math.floor(${fx} * bitmap.width));
      const y = Math.min(bitmap.height - 1, Math.floor(${fy} * bitmap.height));
      const [r, g, b] = context.getImageData(x, y, 1, 1).data;
      return [r, g, b];
    })()`) as Promise<Rgb>;
}

/** True when two colours are within JPEG's error of each other. */
export function near(a: Rgb, b: Rgb, tolerance = 40): boolean {
  return a.every((value, i) => Math.abs(value - b[i]!) <= tolerance);
}

/**
 * Waits for a frame, after the `after`-th one, whose centre shows `color` (and, when given, of tab
 * `pageId`); rejects after `timeoutMs`.
 */
export async function frameShowing(
  viewer: LiveViewerClient,
  decode: (jpeg: Buffer) => Promise<Rgb>,
  color: Rgb,
  options: { after?: number; pageId?: string; timeoutMs?: number } = {},
): Promise<ReceivedFrame> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let next = options.after ?? 0;
  const seen: Rgb[] = [];
  while (Date.now() < deadline) {
    await viewer.waitFor(
      () => viewer.frames.length > next || viewer.closed !== null,
      deadline - Date.now(),
      'a frame',
    );
    if (viewer.frames.length <= next) break;
    const frame = viewer.frames[next++]!;
    if (options.pageId !== undefined && frame.header.pageId !== options.pageId) continue;
    const shown = await decode(frame.jpeg);
    seen.push(shown);
    if (near(shown, color)) return frame;
  }
  throw new Error(`No frame showed rgb(${color.join(',')}); frames showed ${JSON.stringify(seen.slice(-5))}`);
}

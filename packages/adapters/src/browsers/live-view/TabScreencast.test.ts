import { silentLogger } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { CdpClient } from '../cdp/CdpClient.ts';
import { LiveViewer, MAX_VIEWER_BACKLOG_BYTES } from './LiveViewer.ts';
import { TabScreencast } from './TabScreencast.ts';

const OPEN = 1;

/** A viewer over a socket stand-in whose unsent backlog the test sets. */
function fakeViewer(backlog = 0) {
  const sent: Buffer[] = [];
  const ws = {
    OPEN,
    CONNECTING: 0,
    readyState: OPEN,
    bufferedAmount: backlog,
    send: (data: Buffer) => sent.push(data),
    close() {},
  };
  return { viewer: new LiveViewer(ws as unknown as WebSocket, false), ws, sent };
}

/** A started screencast over a client stand-in that records what it fires. */
async function startedTab(minFrameIntervalMs = 0) {
  const fired: Array<{ method: string; params: Record<string, unknown> }> = [];
  const client = {
    isClosed: false,
    send: async (method: string) => (method === 'Target.attachToTarget' ? { sessionId: 'S1' } : {}),
    fire: (method: string, params: Record<string, unknown>) => fired.push({ method, params }),
  } as unknown as CdpClient;
  const tab = new TabScreencast({
    client,
    pageId: 'TAB',
    logger: silentLogger,
    attached: () => {},
    minFrameIntervalMs,
  });
  await tab.start();
  const frame = (n: number) =>
    tab.onFrame({
      sessionId: n,
      data: Buffer.from([n]).toString('base64'),
      metadata: { deviceWidth: 8, deviceHeight: 6 },
    });
  const acks = () =>
    fired.filter((f) => f.method === 'Page.screencastFrameAck').map((f) => f.params.sessionId);
  return { tab, frame, acks, fired };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jpegByte = (message: Buffer) => message.at(-1);

describe('TabScreencast: frames, acks and slow viewers', () => {
  it('acks a frame once a viewer took it; a viewer that is behind skips it and gets the latest when it catches up', async () => {
    const { tab, frame, acks } = await startedTab();
    const fast = fakeViewer();
    const slow = fakeViewer(MAX_VIEWER_BACKLOG_BYTES + 1);
    tab.addViewer(fast.viewer);
    tab.addViewer(slow.viewer);
    frame(1);
    frame(2);
    expect(fast.sent.map(jpegByte)).toEqual([1, 2]);
    expect(slow.sent).toEqual([]);
    expect(acks()).toEqual([1, 2]);
    slow.ws.bufferedAmount = 0;
    await pause(120);
    expect(slow.sent.map(jpegByte)).toEqual([2]);
    expect(fast.sent.map(jpegByte)).toEqual([1, 2]);
    expect(acks()).toEqual([1, 2]);
  });

  it('holds the ack while every viewer is behind, so the browser sends no faster than the fastest reads', async () => {
    const { tab, frame, acks } = await startedTab();
    const a = fakeViewer(MAX_VIEWER_BACKLOG_BYTES + 1);
    const b = fakeViewer(MAX_VIEWER_BACKLOG_BYTES + 1);
    tab.addViewer(a.viewer);
    tab.addViewer(b.viewer);
    frame(7);
    await pause(120);
    expect(acks()).toEqual([]);
    b.ws.bufferedAmount = MAX_VIEWER_BACKLOG_BYTES;
    await pause(120);
    expect(acks()).toEqual([7]);
    expect(b.sent.map(jpegByte)).toEqual([7]);
    expect(a.sent).toEqual([]);
  });

  it('gives a viewer that joins the latest frame at once, and stops once (stop, then detach)', async () => {
    const { tab, frame, fired } = await startedTab();
    const first = fakeViewer();
    tab.addViewer(first.viewer);
    frame(3);
    const late = fakeViewer();
    tab.addViewer(late.viewer);
    expect(late.sent.map(jpegByte)).toEqual([3]);
    expect(tab.removeViewer(first.viewer)).toBe(false);
    expect(tab.removeViewer(late.viewer)).toBe(true);
    tab.stop();
    tab.stop();
    expect(fired.filter((f) => !f.method.endsWith('Ack'))).toEqual([
      { method: 'Page.stopScreencast', params: {} },
      { method: 'Target.detachFromTarget', params: { sessionId: 'S1' } },
    ]);
    frame(4);
    expect(late.sent.map(jpegByte)).toEqual([3]);
  });

  it('paces acks to one per interval, in order, so a busy page is sent at a capped frame rate', async () => {
    const { tab, frame, acks } = await startedTab(80);
    tab.addViewer(fakeViewer().viewer);
    frame(1);
    frame(2);
    frame(3);
    expect(acks()).toEqual([1]);
    await pause(120);
    expect(acks()).toEqual([1, 2]);
    await pause(80);
    expect(acks()).toEqual([1, 2, 3]);
    // After a still moment, the next frame is acked at once.
    await pause(100);
    frame(4);
    expect(acks()).toEqual([1, 2, 3, 4]);
    tab.stop();
  });
});

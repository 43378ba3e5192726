import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CdpBrowserMessage } from '../../cdp/cdpMessages.ts';
import { CdpPipe } from './CdpPipe.ts';
import { CdpRouter } from './CdpRouter.ts';

/** A scripted browser on the other end of a pipe: records what it receives, answers as told. */
function fakeBrowser() {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const received: Array<Record<string, unknown>> = [];
  let pending = '';
  let sessions = 0;
  toBrowser.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let i = pending.indexOf('\0'); i !== -1; i = pending.indexOf('\0')) {
      const message = JSON.parse(pending.slice(0, i)) as Record<string, unknown>;
      pending = pending.slice(i + 1);
      received.push(message);
      if (message.method === 'Target.attachToBrowserTarget')
        emit({ id: message.id, result: { sessionId: `B${++sessions}` } });
      else if (message.method === 'Target.attachToTarget')
        emit({
          id: message.id,
          result: { sessionId: `child-of-${String(message.sessionId)}` },
          sessionId: message.sessionId,
        });
      else
        emit({
          id: message.id,
          result: { echo: message.method },
          ...(message.sessionId ? { sessionId: message.sessionId } : {}),
        });
    }
  });
  const emit = (message: object): void => {
    // Split every message in two chunks: the pipe must reassemble them.
    const bytes = Buffer.from(`${JSON.stringify(message)}\0`);
    fromBrowser.write(bytes.subarray(0, 3));
    fromBrowser.write(bytes.subarray(3));
  };
  return { pipe: new CdpPipe(toBrowser, fromBrowser), received, emit, fromBrowser };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('CdpRouter', () => {
  it('gives each client a browser session of its own, renumbers ids and strips its session id from answers', async () => {
    const browser = fakeBrowser();
    const router = new CdpRouter(browser.pipe);
    const a: CdpBrowserMessage[] = [];
    const b: CdpBrowserMessage[] = [];
    const clientA = await router.openClient((m) => a.push(m));
    const clientB = await router.openClient((m) => b.push(m));
    clientA.send({ id: 1, method: 'Browser.getVersion' });
    clientB.send({ id: 1, method: 'Browser.getVersion' });
    await tick();
    const sent = browser.received.filter((m) => m.method === 'Browser.getVersion');
    expect(sent.map((m) => m.sessionId)).toEqual(['B1', 'B2']);
    expect(new Set(sent.map((m) => m.id)).size).toBe(2);
    expect(a).toEqual([{ id: 1, result: { echo: 'Browser.getVersion' } }]);
    expect(b).toEqual([{ id: 1, result: { echo: 'Browser.getVersion' } }]);
  });

  it("routes events by session: a client's targets are its own, browser-wide events go to the root only", async () => {
    const browser = fakeBrowser();
    const router = new CdpRouter(browser.pipe);
    const root: CdpBrowserMessage[] = [];
    const a: CdpBrowserMessage[] = [];
    const b: CdpBrowserMessage[] = [];
    router.openRoot((m) => root.push(m));
    await router.openClient((m) => a.push(m));
    const clientB = await router.openClient((m) => b.push(m));
    browser.emit({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'P1', targetInfo: {} },
      sessionId: 'B1',
    });
    browser.emit({ method: 'Runtime.consoleAPICalled', params: {}, sessionId: 'P1' });
    browser.emit({ method: 'Target.targetCreated', params: {} });
    await tick();
    expect(a.map((m) => [m.method, m.sessionId])).toEqual([
      ['Target.attachedToTarget', undefined],
      ['Runtime.consoleAPICalled', 'P1'],
    ]);
    expect(root.map((m) => m.method)).toEqual(['Target.targetCreated']);
    expect(b).toEqual([]);
    // B may not address A's page session, nor detach it.
    clientB.send({ id: 7, method: 'Runtime.evaluate', sessionId: 'P1' });
    clientB.send({ id: 8, method: 'Target.detachFromTarget', params: { sessionId: 'P1' } });
    clientB.send({ id: 9, method: 'Target.detachFromTarget', params: { sessionId: 'B1' } });
    await tick();
    expect(b.map((m) => [m.id, m.error?.message])).toEqual([
      [7, 'Session with given id not found.'],
      [8, 'Session with given id not found.'],
      [9, 'Session with given id not found.'],
    ]);
    expect(
      browser.received.some((m) => m.method === 'Runtime.evaluate' || m.method === 'Target.detachFromTarget'),
    ).toBe(false);
  });

  it('hands a flat attach to the client that asked, and detaches a closed client', async () => {
    const browser = fakeBrowser();
    const router = new CdpRouter(browser.pipe);
    const a: CdpBrowserMessage[] = [];
    let closed = false;
    const client = await router.openClient(
      (m) => a.push(m),
      () => {
        closed = true;
      },
    );
    client.send({ id: 1, method: 'Target.attachToTarget', params: { targetId: 'T', flatten: true } });
    await tick();
    expect(a[0]).toEqual({ id: 1, result: { sessionId: 'child-of-B1' } });
    client.send({ id: 2, method: 'Runtime.evaluate', sessionId: 'child-of-B1' });
    await tick();
    expect(a[1]).toMatchObject({ id: 2, sessionId: 'child-of-B1' });
    client.close();
    await tick();
    expect(closed).toBe(true);
    expect(browser.received.at(-1)).toMatchObject({
      method: 'Target.detachFromTarget',
      params: { sessionId: 'B1' },
    });
    browser.emit({ method: 'Runtime.consoleAPICalled', params: {}, sessionId: 'child-of-B1' });
    await tick();
    expect(a).toHaveLength(2);
  });

  it('closes every connection when the browser goes', async () => {
    const browser = fakeBrowser();
    const router = new CdpRouter(browser.pipe);
    let closed = 0;
    router.openRoot(
      () => {},
      () => closed++,
    );
    await router.openClient(
      () => {},
      () => closed++,
    );
    browser.fromBrowser.destroy();
    await tick();
    expect(closed).toBe(2);
    await expect(router.openClient(() => {})).rejects.toThrow(/refused a client session/);
  });
});

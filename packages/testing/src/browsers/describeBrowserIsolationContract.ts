import { access, chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionLogEntry } from '@browserdeck/domain';
import { type Browser, type CDPSession, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { listeningSocketsOf, processTree } from './browserProcesses.ts';

/** A provider running browsers on this host, as the isolation suite drives it. */
export interface IsolationHarness {
  /** Starts a session in `projectId` (our project id) and returns its id and `connectUrl`. */
  create(request: {
    projectId: string;
    contextId?: string | null;
  }): Promise<{ id: string; connectUrl: string }>;
  release(id: string): Promise<void>;
  logs(id: string): Promise<SessionLogEntry[]>;
  /** The pid at the top of the session's browser process tree, and its downloads folder. */
  inspect(id: string): { pid: number; downloadsDir: string };
  /** The provider's data folder (it must stay out of the browser's reach). */
  readonly dataDir: string;
  close(): Promise<void>;
}

/** Set in the service's environment before the harness starts; no browser may see it. */
export const SERVICE_SECRET_VARIABLE = 'BROWSERDECK_ISOLATION_CANARY';

/**
 * The isolation contract of every provider that runs browsers on our hosts (http-api.md §7, issue 14): a
 * browser is a sealed box. Each case is a regression test for one finding of the security review
 * and drives a real browser through its `connectUrl`. Traffic goes only to loopback servers the
 * suite starts itself (which the egress proxy must refuse); private, link-local and public
 * addresses are covered by the egress policy's unit tests, without the network.
 */
export function describeBrowserIsolationContract(name: string, setUp: () => Promise<IsolationHarness>): void {
  describe(`${name}: browser isolation contract`, () => {
    const secret = `canary-${Math.random().toString(36).slice(2)}`;
    let harness: IsolationHarness;
    let scratch: string;
    let loopback: { port: number; hits: string[]; close(): Promise<void> };
    const canaries: Record<string, string> = {};

    beforeAll(async () => {
      process.env[SERVICE_SECRET_VARIABLE] = secret;
      harness = await setUp();
      scratch = await mkdtemp(join(tmpdir(), 'browserdeck-isolation-'));
      // World-readable, so only the confinement (not file modes) keeps them from the browser.
      await chmod(scratch, 0o755);
      canaries.tmp = join(scratch, 'canary.txt');
      canaries.data = join(harness.dataDir, 'canary.txt');
      for (const path of [canaries.tmp, canaries.data]) {
        await writeFile(path, secret);
        await chmod(path, 0o644);
      }
      loopback = await startLoopbackServer(secret);
    });

    afterAll(async () => {
      delete process.env[SERVICE_SECRET_VARIABLE];
      await harness?.close();
      await loopback?.close();
      await rm(scratch, { recursive: true, force: true });
    });

    async function withBrowser<T>(
      projectId: string,
      use: (browser: Browser, session: { id: string; connectUrl: string }) => Promise<T>,
    ): Promise<T> {
      const session = await harness.create({ projectId });
      const browser = await chromium.connectOverCDP(session.connectUrl);
      try {
        return await use(browser, session);
      } finally {
        await browser.close().catch(() => {});
        await harness.release(session.id);
      }
    }

    it("runs the browser unprivileged, with Chromium's sandbox on and none of the service's environment", async () => {
      await withBrowser('isolation-user', async (browser, session) => {
        const page = await browser.contexts()[0]!.newPage();
        await page.goto('data:text/html,<p>sandboxed</p>');
        const tree = await processTree(harness.inspect(session.id).pid);
        // The browser's own processes, not the confinement's launchers (unshare, sh, setpriv, bwrap).
        const chromiumProcesses = tree.filter((p) => /chrom/i.test(p.cmdline.split(' ')[0] ?? ''));
        expect(chromiumProcesses.length).toBeGreaterThan(1);
        for (const p of chromiumProcesses) {
          expect(p.uid, p.cmdline).not.toBe(0);
          expect(p.cmdline).not.toContain('--no-sandbox');
          expect(p.environ).not.toContain(secret);
        }
        const renderers = chromiumProcesses.filter((p) => p.cmdline.includes('--type=renderer'));
        expect(renderers.length).toBeGreaterThan(0);
        // 2: a seccomp-bpf filter, Chromium's renderer sandbox.
        for (const renderer of renderers) expect(renderer.seccomp).toBe(2);
      });
    });

    it('opens no DevTools port: nothing of the browser listens on TCP', async () => {
      await withBrowser('isolation-port', async (_browser, session) => {
        const tree = await processTree(harness.inspect(session.id).pid);
        expect(tree.map((p) => p.cmdline).join('\n')).not.toMatch(/--remote-debugging-port/);
        expect(await listeningSocketsOf(tree.map((p) => p.pid))).toEqual([]);
      });
    });

    it("cannot read the host's files: DATA_DIR, other folders and /etc/shadow stay invisible even through a path the policy allows", async () => {
      await withBrowser('isolation-files', async (browser, session) => {
        const { downloadsDir } = harness.inspect(session.id);
        // Links inside the session's own folder pass the policy; the confinement must still hide their targets.
        const links: Record<string, string> = {};
        for (const [label, target] of Object.entries({
          ...canaries,
          shadow: '/etc/shadow',
          dataDir: harness.dataDir,
        })) {
          links[label] = join(downloadsDir, `link-${label}`);
          await symlink(target, links[label]);
        }
        const context = browser.contexts()[0]!;
        const page = await context.newPage();
        await page.setContent('<input type="file" id="f" multiple>');
        const cdp = await context.newCDPSession(page);
        const { root } = await cdp.send('DOM.getDocument');
        const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#f' });
        for (const [label, link] of Object.entries(links)) {
          await cdp.send('DOM.setFileInputFiles', { nodeId, files: [link] }).catch(() => {});
          const read = await page.evaluate<string>(`(async () => {
            const file = document.getElementById('f').files[0];
            if (!file) return 'no file';
            return file.text().then((text) => 'read: ' + text.slice(0, 200), (error) => 'refused: ' + error.name);
          })()`);
          expect(read, label).not.toContain(secret);
          expect(read, label).not.toMatch(/root:/);
        }
        // A host path named directly is refused by the policy, for file inputs and dropped files alike.
        await expect(cdp.send('DOM.setFileInputFiles', { nodeId, files: [canaries.data!] })).rejects.toThrow(
          /downloads folder/,
        );
        await expect(
          cdp.send('Input.dispatchDragEvent', {
            type: 'drop',
            x: 1,
            y: 1,
            data: { items: [], files: [canaries.tmp!], dragOperationsMask: 1 },
          }),
        ).rejects.toThrow(/downloads folder/);
      });
    });

    it('fails closed: a message Chrome would accept but strict JSON does not is answered with an error, never forwarded', async () => {
      const session = await harness.create({ projectId: 'isolation-json' });
      const socket = await openSocket(session.connectUrl);
      try {
        const target = join(scratch, 'written-by-the-browser');
        socket.send(
          `/**/{"id":1,"method":"Browser.setDownloadBehavior","params":{"behavior":"allow","downloadPath":${JSON.stringify(target)}}}`,
        );
        expect(await socket.next()).toMatchObject({
          error: { code: -32700, message: expect.stringMatching(/strict JSON/) },
        });
        for (const [id, message] of [
          [2, { method: 'Target.sendMessageToTarget', params: { message: '{}', targetId: 'x' } }],
          [3, { method: 'Target.attachToTarget', params: { targetId: 'x', flatten: false } }],
          [4, { method: 'Extensions.loadUnpacked', params: { path: '/tmp' } }],
          [5, { method: 'DOM.setFileInputFiles', params: { files: ['/etc/shadow'], nodeId: 1 } }],
        ] as const) {
          socket.send(JSON.stringify({ id, ...message }));
          expect(await socket.next()).toMatchObject({
            id,
            error: { message: expect.stringMatching(/^Browserdeck: /) },
          });
        }
        // A browser-target session of the client's own is checked like its first one.
        socket.send(JSON.stringify({ id: 6, method: 'Target.attachToBrowserTarget' }));
        let attached = await socket.next();
        while (attached.id === undefined) attached = await socket.next(); // Target.attachedToTarget comes first
        const sessionId = (attached.result as { sessionId: string }).sessionId;
        expect(sessionId).toEqual(expect.any(String));
        socket.send(
          JSON.stringify({
            id: 7,
            method: 'Browser.setDownloadBehavior',
            params: { behavior: 'allow', downloadPath: target },
            sessionId,
          }),
        );
        expect(await socket.next()).toMatchObject({ id: 7, sessionId });
        socket.send(
          JSON.stringify({ id: 8, method: 'Extensions.loadUnpacked', params: { path: '/tmp' }, sessionId }),
        );
        expect(await socket.next()).toMatchObject({
          id: 8,
          error: { message: expect.stringMatching(/allowlist/) },
        });
        // The connection still works for allowed commands.
        socket.send(JSON.stringify({ id: 9, method: 'Browser.getVersion' }));
        expect(await socket.next()).toMatchObject({ id: 9, result: { product: expect.any(String) } });
        await expect(access(target)).rejects.toThrow();
      } finally {
        socket.close();
        await harness.release(session.id);
      }
    });

    it("keeps pages off the host's loopback network, by any spelling, and logs each refusal", async () => {
      await withBrowser('isolation-loopback', async (browser, session) => {
        const page = await browser.contexts()[0]!.newPage();
        const port = loopback.port;
        for (const host of [
          '127.0.0.1',
          'localhost',
          'deck.localhost',
          '0.0.0.0',
          '127.1',
          '2130706433',
          '[::ffff:127.0.0.1]',
          '[::1]',
        ]) {
          const url = `http://${host}:${port}/metrics`;
          const outcome = await page.goto(url, { timeout: 15_000 }).then(
            async (response) => `loaded ${response?.status()}: ${await page.textContent('body')}`,
            (error: Error) => `failed: ${error.message.split('\n')[0]}`,
          );
          // Plain HTTP is answered with the egress proxy's 403 page naming the rule, never the target.
          expect(outcome, url).toMatch(/^failed: |^loaded 403: .*Browserdeck egress policy refused /);
        }
        const fresh = await browser.contexts()[0]!.newPage();
        await fresh.goto('data:text/html,<p>ws</p>');
        const ws = await fresh.evaluate<string>(`new Promise((resolve) => {
          const socket = new WebSocket('ws://127.0.0.1:${port}/');
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('error');
        })`);
        expect(ws).toBe('error');
        // A context with a proxy of its own (or none) would go around the egress proxy: refused.
        for (const server of ['direct://', `http://127.0.0.1:${port}`])
          await expect(browser.newContext({ proxy: { server } })).rejects.toThrow(/egress proxy/);
        await expect(
          browser.newContext({ proxy: { server: 'http://example.test:1', bypass: '*' } }),
        ).rejects.toThrow(/egress proxy/);
        expect(loopback.hits).toEqual([]);
        const refusals = (await harness.logs(session.id)).filter(
          (l) => l.method === 'Browserdeck.egressRefused',
        );
        expect(refusals.length).toBeGreaterThan(0);
        expect(JSON.stringify(refusals[0]!.request?.params)).toMatch(/loopback/);
      });
    });

    it('keeps contexts apart by project: the same contextId in two projects is two profiles', async () => {
      const setCookie = async (cdp: CDPSession, value: string) =>
        cdp.send('Storage.setCookies', {
          cookies: [
            { name: 'deck', value, domain: 'example.test', path: '/', expires: Date.now() / 1000 + 3600 },
          ],
        });
      const cookies = async (cdp: CDPSession) =>
        (await cdp.send('Storage.getCookies', {})).cookies
          .filter((c) => c.name === 'deck')
          .map((c) => c.value);
      const open = async (projectId: string) => {
        const session = await harness.create({ projectId, contextId: 'shared' });
        const browser = await chromium.connectOverCDP(session.connectUrl);
        return { session, browser, cdp: await browser.newBrowserCDPSession() };
      };
      const a = await open('isolation-project-a');
      // The other project's context of the same name opens while A's is in use: nothing tells B it exists.
      const b = await open('isolation-project-b');
      await setCookie(a.cdp, 'only-in-a');
      expect(await cookies(b.cdp)).toEqual([]);
      for (const s of [a, b]) {
        await s.browser.close();
        await harness.release(s.session.id);
      }
      const again = await open('isolation-project-a');
      expect(await cookies(again.cdp)).toEqual(['only-in-a']);
      const other = await open('isolation-project-b');
      expect(await cookies(other.cdp)).toEqual([]);
      for (const s of [again, other]) {
        await s.browser.close();
        await harness.release(s.session.id);
      }
    });

    it('closes a connection that sends an oversized frame at its header, and the session keeps serving', async () => {
      const session = await harness.create({ projectId: 'isolation-frame' });
      try {
        const socket = await openSocket(session.connectUrl);
        const closed = socket.closed();
        socket.send(Buffer.alloc(50 * 1024 * 1024, 0x20));
        expect(await closed).toBe(1009);
        const fresh = await openSocket(session.connectUrl);
        fresh.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
        expect(await fresh.next()).toMatchObject({ id: 1, result: {} });
        fresh.close();
      } finally {
        await harness.release(session.id);
      }
    });
  });
}

async function startLoopbackServer(
  secret: string,
): Promise<{ port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const handler = (req: { url?: string }, res: { end(body: string): void }) => {
    hits.push(req.url ?? '');
    res.end(secret);
  };
  const onUpgrade = (req: { url?: string }, socket: { destroy(): void }): void => {
    hits.push(`upgrade ${req.url}`);
    socket.destroy();
  };
  const servers: Server[] = [createServer(handler).on('upgrade', onUpgrade)];
  await new Promise<void>((resolve) => servers[0]!.listen(0, '127.0.0.1', resolve));
  const port = (servers[0]!.address() as AddressInfo).port;
  // The same port on ::1 when this host has IPv6 loopback.
  const six = createServer(handler).on('upgrade', onUpgrade);
  await new Promise<void>((resolve) => {
    six.once('error', () => resolve());
    six.listen(port, '::1', () => {
      servers.push(six);
      resolve();
    });
  });
  return {
    port,
    hits,
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** A raw WebSocket client: send anything, read answers in order, see how it closed. */
async function openSocket(url: string): Promise<{
  send(data: string | Buffer): void;
  next(): Promise<Record<string, unknown>>;
  closed(): Promise<number>;
  close(): void;
}> {
  const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
  const inbox: Array<Record<string, unknown>> = [];
  const waiters: Array<(m: Record<string, unknown>) => void> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const closing = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    send: (data) => socket.send(data),
    next: () => {
      const queued = inbox.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        waiters.push(resolve);
        setTimeout(() => reject(new Error('no answer in time')), 10_000).unref();
      });
    },
    closed: () => closing,
    close: () => socket.close(),
  };
}

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '@browserdeck/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserConfinement } from '../../../confinement/isolation/BrowserConfinement.ts';
import { checkUpstreamProxies } from '../../egress/checkUpstreamProxies.ts';
import { EgressPolicy } from '../../egress/EgressPolicy.ts';
import { ChromiumProcess } from '../chromium/ChromiumProcess.ts';
import { PreparedBrowser } from './PreparedBrowser.ts';

// No Chromium: its launch is replaced by a stand-in that makes the browser's first request (as an
// extension's service worker does at start) through the proxy it was given, then stops the launch.
// Only loopback: the upstream proxy is a plain HTTP server on 127.0.0.1.

const STOPPED = 'launch stopped by the test';

/** Names resolve nowhere: only the upstream can carry a request for `*.test`. */
const lookup = async (hostname: string) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** A plain-HTTP GET through `proxyUrl` (absolute-form target, as a browser sends it). */
function getVia(proxyUrl: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(proxyUrl);
    const req = http.request({ host: hostname, port, path: url, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setHeader('host', new URL(url).host);
    req.on('error', reject);
    req.end();
  });
}

describe('PreparedBrowser.launch for a session', () => {
  let upstream: http.Server;
  let upstreamPort: number;
  const upstreamSeen: string[] = [];
  let profileDir: string;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      upstreamSeen.push(`${req.method} ${req.url}`);
      res.end('via the upstream');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    profileDir = await mkdtemp(join(tmpdir(), 'prepared-browser-test-'));
  });

  afterEach(() => {
    vi.restoreAllMocks();
    upstreamSeen.length = 0;
  });

  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    await rm(profileDir, { recursive: true, force: true });
  });

  /** Launches with a stand-in Chromium whose first request is for `url`; what that request got. */
  const firstRequestAtLaunch = async (sessionRoutes: 'session' | 'warm', url: string) => {
    const policy = new EgressPolicy({ allow: [`127.0.0.1:${upstreamPort}`] });
    const routes = await checkUpstreamProxies(
      [{ type: 'external', server: `http://127.0.0.1:${upstreamPort}`, domainPattern: '.*\\.test' }],
      policy,
      lookup,
    );
    let first: { status: number; body: string } | null = null;
    vi.spyOn(ChromiumProcess, 'launch').mockImplementation(async ({ proxyUrl }) => {
      first = await getVia(proxyUrl!, url);
      throw new Error(STOPPED);
    });
    const confinement = { user: null, claim: async () => {} } as unknown as BrowserConfinement;
    await expect(
      PreparedBrowser.launch({
        executablePath: '/nonexistent/chromium',
        profile: { kind: 'persistent', dir: profileDir },
        confinement,
        egress: policy,
        clock: new SystemClock(),
        logLimits: { maxEntryBytes: 4096, maxBytes: 65_536 },
        windowSize: { width: 800, height: 600 },
        sessionRoutes: sessionRoutes === 'session' ? routes : null,
      }),
    ).rejects.toThrow(STOPPED);
    return first;
  };

  it("routes a cold browser's first request through the session's upstream, before Chromium is up", async () => {
    expect(await firstRequestAtLaunch('session', 'http://first.test/')).toEqual({
      status: 200,
      body: 'via the upstream',
    });
    expect(upstreamSeen).toEqual(['GET http://first.test/']);
  });

  it('a warm browser (no session yet) talks direct: the upstream sees nothing', async () => {
    const first = await firstRequestAtLaunch('warm', 'http://first.test/');
    expect(first).toMatchObject({ status: 502 });
    expect(upstreamSeen).toEqual([]);
  });
});

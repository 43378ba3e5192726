import { readdir, readFile, stat } from 'node:fs/promises';
import { type SeleniumGrid, startSeleniumGrid } from '@browserdeck/testing/selenium-grid';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The real Selenium Grid 4 the Grid provider's tests run on (`@browserdeck/testing/selenium-grid`):
 * both topologies start, serve Chromium sessions with `se:cdp`, spread sessions over the nodes, time
 * out a full queue, and leave nothing running once closed.
 */

/** What a W3C new-session request gets back. */
interface NewSession {
  readonly status: number;
  readonly sessionId?: string;
  readonly capabilities: Record<string, unknown>;
  readonly error?: string;
  readonly message?: string;
}

/** Headless Chromium with CDP through the Grid; root needs `--no-sandbox`. */
const CHROME = {
  browserName: 'chrome',
  'se:cdpEnabled': true,
  'goog:chromeOptions': { args: ['--headless=new', '--no-sandbox', '--window-size=1280,720'] },
};

async function newSession(gridUrl: string, capabilities: object = CHROME): Promise<NewSession> {
  const response = await fetch(`${gridUrl}/session`, {
    method: 'POST',
    // The Grid refuses a JSON body whose Content-Type does not say utf-8.
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ capabilities: { alwaysMatch: capabilities } }),
  });
  const { value } = (await response.json()) as {
    value: { sessionId?: string; capabilities?: Record<string, unknown>; error?: string; message?: string };
  };
  return {
    status: response.status,
    sessionId: value.sessionId,
    capabilities: value.capabilities ?? {},
    error: value.error,
    message: value.message,
  };
}

async function deleteSession(gridUrl: string, sessionId: string): Promise<number> {
  const response = await fetch(`${gridUrl}/session/${sessionId}`, { method: 'DELETE' });
  await response.arrayBuffer();
  return response.status;
}

/** Session id → the URI of the node running it, from the Grid's `/status`. */
async function sessionsByNode(gridUrl: string): Promise<Map<string, string>> {
  const status = (await (await fetch(`${gridUrl}/status`)).json()) as {
    value: { nodes: { uri: string; slots: { session: { sessionId: string } | null }[] }[] };
  };
  const placed = new Map<string, string>();
  for (const node of status.value.nodes)
    for (const slot of node.slots)
      if (slot.session) placed.set(slot.session.sessionId, node.uri.replace(/\/$/, ''));
  return placed;
}

/** Pids of processes whose command line mentions `dir`. */
async function processesUsing(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir)) pids.push(Number(entry));
  }
  return pids;
}

/** Polls `check` until it holds; throws after `timeoutMs`. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe('a standalone Selenium Grid', () => {
  let grid: SeleniumGrid;
  beforeAll(async () => {
    grid = await startSeleniumGrid({ topology: 'standalone' });
  });
  afterAll(() => grid?.close());

  it('listens on loopback with itself as the one node', () => {
    expect(grid.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(grid.nodes).toEqual([{ url: grid.url }]);
  });

  it('serves a Chromium session whose se:cdp Playwright drives, then deletes it', async () => {
    const session = await newSession(grid.url);
    expect(session.status, session.message).toBe(200);
    const seCdp = session.capabilities['se:cdp'];
    expect(seCdp).toBe(`ws://127.0.0.1:${new URL(grid.url).port}/session/${session.sessionId}/se/cdp`);
    expect(session.capabilities['goog:chromeOptions']).toMatchObject({ debuggerAddress: expect.any(String) });

    const browser = await chromium.connectOverCDP(seCdp as string);
    try {
      const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
      await page.setContent('<title>on the grid</title><p id="out">42</p>');
      expect(await page.evaluate("document.title + ': ' + document.getElementById('out').textContent")).toBe(
        'on the grid: 42',
      );
    } finally {
      await browser.close();
    }

    const profile = (session.capabilities.chrome as { userDataDir: string }).userDataDir;
    expect(profile.startsWith(grid.dir)).toBe(true);
    expect(await processesUsing(profile)).not.toEqual([]);
    expect(await deleteSession(grid.url, session.sessionId!)).toBe(200);
    // The browser ends with its session (a wrapper script as the binary would leave it running).
    await eventually(async () => (await processesUsing(profile)).length === 0);
    const gone = await fetch(`${grid.url}/session/${session.sessionId}/url`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { value: { error: string } }).value.error).toBe('invalid session id');
  });

  it("measures the Grid's own new-session time over 10 sessions (for the bench)", async () => {
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const session = await newSession(grid.url);
      times.push(performance.now() - started);
      expect(session.status, session.message).toBe(200);
      expect(await deleteSession(grid.url, session.sessionId!)).toBe(200);
    }
    const p50 = median(times);
    console.log(
      `Selenium Grid ${grid.prerequisites.jarVersion} standalone, ${grid.prerequisites.chromium} ` +
        `${grid.prerequisites.browserVersion}: new session p50 ${p50.toFixed(0)} ms, ` +
        `max ${Math.max(...times).toFixed(0)} ms over ${times.length}`,
    );
    expect(p50).toBeGreaterThan(0);
  });
});

describe('a Selenium Grid hub with two nodes', () => {
  let grid: SeleniumGrid;
  beforeAll(async () => {
    grid = await startSeleniumGrid({ topology: 'hub-and-nodes', nodes: 2, maxSessionsPerNode: 2 });
  });
  afterAll(() => grid?.close());

  it('lists two nodes apart from the hub', () => {
    expect(grid.nodes).toHaveLength(2);
    expect(new Set(grid.nodes.map((n) => n.url)).size).toBe(2);
    for (const node of grid.nodes) {
      expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(node.url).not.toBe(grid.url);
    }
  });

  it('runs four sessions at once over both nodes, se:cdp through the hub, then deletes them', async () => {
    const sessions = await Promise.all([1, 2, 3, 4].map(() => newSession(grid.url)));
    for (const session of sessions) expect(session.status, session.message).toBe(200);
    const ids = sessions.map((s) => s.sessionId!);
    try {
      const placed = await sessionsByNode(grid.url);
      expect(ids.map((id) => placed.get(id)).sort()).toEqual(
        [...grid.nodes, ...grid.nodes].map((n) => n.url).sort(),
      );
      for (const session of sessions)
        expect(session.capabilities['se:cdp']).toBe(
          `ws://127.0.0.1:${new URL(grid.url).port}/session/${session.sessionId}/se/cdp`,
        );
      const browser = await chromium.connectOverCDP(sessions[3]!.capabilities['se:cdp'] as string);
      try {
        const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
        expect(await page.evaluate(() => 6 * 7)).toBe(42);
      } finally {
        await browser.close();
      }
    } finally {
      const deleted = await Promise.all(ids.map((id) => deleteSession(grid.url, id)));
      expect(deleted).toEqual([200, 200, 200, 200]);
    }
    // The hub frees the slots when the nodes' events reach it.
    await eventually(async () => (await sessionsByNode(grid.url)).size === 0);
  });
});

describe('a Selenium Grid that is full', () => {
  it('times a queued request out after sessionRequestTimeoutSec, then serves it once a slot is free', async () => {
    const grid = await startSeleniumGrid({
      topology: 'standalone',
      maxSessionsPerNode: 1,
      sessionRequestTimeoutSec: 2,
    });
    try {
      const first = await newSession(grid.url);
      expect(first.status, first.message).toBe(200);
      const started = performance.now();
      const queued = await newSession(grid.url);
      const waited = performance.now() - started;
      expect({ status: queued.status, error: queued.error }).toEqual({
        status: 500,
        error: 'session not created',
      });
      expect(queued.message).toMatch(/timed out/i);
      expect(waited).toBeGreaterThanOrEqual(2_000);
      expect(await deleteSession(grid.url, first.sessionId!)).toBe(200);
      const next = await newSession(grid.url);
      expect(next.status, next.message).toBe(200);
      expect(await deleteSession(grid.url, next.sessionId!)).toBe(200);
    } finally {
      await grid.close();
    }
  });

  it('leaves no Java, driver, browser or folder behind once closed', async () => {
    const grid = await startSeleniumGrid({ topology: 'hub-and-nodes', nodes: 1 });
    const session = await newSession(grid.url);
    expect(session.status, session.message).toBe(200);
    // The hub, the node and the session's driver and browser (its profile is under grid.dir).
    expect((await processesUsing(grid.dir)).length).toBeGreaterThanOrEqual(3);
    await grid.close();
    expect(await processesUsing(grid.dir)).toEqual([]);
    await expect(stat(grid.dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extensionZip, manifestJson } from '@browserdeck/testing/adapters';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './freePort.ts';
import { callInstance, eventually, sharedInstanceSecrets, through } from './instancesApi.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type RunJson, type RunsUser, runsUser, signUpUser } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';
import { zipEntries } from './zipFiles.ts';

/** The test's site: a page with a download link, and the file it downloads. */
const SITE_PAGES: Record<string, { type: string; body: string; attachment?: string }> = {
  '/files': {
    type: 'text/html',
    body: '<!doctype html><title>files</title><a id="report" href="/report.csv" download>report</a>',
  },
  '/report.csv': { type: 'text/csv', body: 'made,on\nA,1\n', attachment: 'report.csv' },
  '/plain': { type: 'text/html', body: '<!doctype html><title>plain</title><p>nothing here</p>' },
};

/**
 * SPEC §16, "nothing a tenant made lives on one instance's disk": two instances on one PostgreSQL
 * database, each with a data folder of its own, behind one public URL (B's address stands for the
 * load balancer). A is API-only (`RUN_WORKER=false`). An extension uploaded through A loads in a
 * session B starts; an ad-hoc run posted through B on a session A holds runs on B's worker against
 * A's browser; a download made on A, and the session's HAR, are served by B after A has stopped.
 */
describe('instances with separate data folders: what a tenant made is served by any of them', () => {
  let db: TestDatabase;
  let a: ServerProcess | undefined;
  let b: ServerProcess;
  let user: RunsUser;
  let site: Server;
  let siteUrl = '';
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'browserdeck-shared-files-')));

  beforeAll(async () => {
    site = createServer((req, res) => {
      const page = SITE_PAGES[new URL(req.url ?? '/', 'http://x').pathname];
      if (!page) return res.writeHead(404).end();
      res.writeHead(200, {
        'Content-Type': page.type,
        ...(page.attachment ? { 'Content-Disposition': `attachment; filename="${page.attachment}"` } : {}),
      });
      res.end(page.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const sitePort = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}`;
    db = await createTestDatabase();
    const [portA, portB] = [await freePort(), await freePort()];
    const shared = {
      ...sharedInstanceSecrets(),
      DATABASE_URL: db.url,
      PUBLIC_URL: `http://127.0.0.1:${portB}`,
      LOCAL_WARM_BROWSERS: '0',
      LOCAL_MAX_SESSIONS: '3',
      // The test's site by its port: the instances' own ports stay refused to the browsers.
      EGRESS_ALLOW: `127.0.0.1:${sitePort}`,
    };
    a = await startServerProcess(
      { ...shared, PORT: String(portA), DATA_DIR: dirs[0]!, LOCAL_INSTANCE_ID: 'a', RUN_WORKER: 'false' },
      60_000,
    );
    b = await startServerProcess(
      { ...shared, PORT: String(portB), DATA_DIR: dirs[1]!, LOCAL_INSTANCE_ID: 'b' },
      60_000,
    );
    expect(a.output()).toContain('"runs":"api-only"');
    const onA = await signUpUser(a.url);
    user = runsUser(b.url, onA.token, onA.projectId);
  }, 150_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    await new Promise((resolve) => site?.close(resolve));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const sessions = () => `${user.base}/sessions`;
  const onA = () => {
    if (!a) throw new Error('instance A has stopped');
    return a;
  };

  it('loads an extension uploaded through A into a session B starts', async () => {
    const form = new FormData();
    const zip = await extensionZip({
      'manifest.json': manifestJson({
        name: 'Shared Marker',
        content_scripts: [{ matches: ['<all_urls>'], js: ['mark.js'], run_at: 'document_start' }],
      }),
      'mark.js': "document.documentElement.dataset.sharedMarker = 'by-extension';",
    });
    form.append('file', new Blob([zip]), 'marker.zip');
    const uploaded = await fetch(`${onA().url}/v1/projects/${user.projectId}/extensions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const extensionId = ((await uploaded.json()) as { id: string }).id;

    const created = await callInstance(b, 'POST', sessions(), user.token, { extensionId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const browser = await chromium.connectOverCDP(through(b, created.body.connectUrl));
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.goto(`${siteUrl}/plain`);
      await expect
        .poll(() => page.evaluate<string | undefined>('document.documentElement.dataset.sharedMarker'))
        .toBe('by-extension');
      // B's browser holds it (the session is B's), listed as loaded.
      const cdp = await browser.newBrowserCDPSession();
      const listed = (await cdp.send('Extensions.getExtensions' as never)) as {
        extensions: Array<{ name: string; enabled: boolean }>;
      };
      expect(listed.extensions).toEqual([expect.objectContaining({ name: 'Shared Marker', enabled: true })]);
    } finally {
      await browser.close();
      await callInstance(b, 'POST', `${sessions()}/${created.body.id}:release`, user.token);
    }
  }, 120_000);

  it('runs an ad-hoc run posted through B on a session A holds: B’s worker drives A’s browser', async () => {
    const created = await callInstance(onA(), 'POST', sessions(), user.token, {});
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const script = [
      "await page.goto(input.url + '/plain');",
      "await page.evaluate(() => { document.title = 'ran on the session A holds'; });",
      'return { title: await page.title(), answer: await page.evaluate(() => 6 * 7) };',
    ].join('\n');
    const started = await user.call<RunJson>('POST', `${sessions()}/${id}/runs`, {
      script,
      input: { url: siteUrl },
      timeoutSec: 60,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const run = await user.terminal(started.body.id, 90_000);
    expect(run.error).toBeNull();
    expect(run.status).toBe('SUCCEEDED');
    expect(run.result).toEqual({ title: 'ran on the session A holds', answer: 42 });
    expect(run.sessionId).toBe(id);

    // It was A's browser: the page the run left is there, and the session stays open.
    const browser = await chromium.connectOverCDP(through(onA(), created.body.connectUrl));
    try {
      const titles = await Promise.all(
        browser.contexts().flatMap((context) => context.pages().map((page) => page.title())),
      );
      expect(titles).toContain('ran on the session A holds');
    } finally {
      await browser.close();
    }
    const read = await callInstance(onA(), 'GET', `${sessions()}/${id}`, user.token);
    expect(read.body.status).toBe('RUNNING');
    await callInstance(b, 'POST', `${sessions()}/${id}:release`, user.token);
  }, 150_000);

  it('serves through B the downloads of a session A held, after A has stopped', async () => {
    const holder = onA();
    const created = await callInstance(holder, 'POST', sessions(), user.token, {});
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const browser = await chromium.connectOverCDP(through(holder, created.body.connectUrl));
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.goto(`${siteUrl}/files`);
      const download = page.waitForEvent('download');
      await page.click('#report');
      expect(await (await download).failure()).toBeNull();
    } finally {
      await browser.close().catch(() => {});
    }
    const released = await callInstance(holder, 'POST', `${sessions()}/${id}:release`, user.token);
    expect(released.body.status).toBe('COMPLETED');

    expect(await holder.stop()).toBe(0);
    a = undefined;
    const zip = () =>
      fetch(`${b.url}${sessions()}/${id}/downloads`, { headers: { Authorization: `Bearer ${user.token}` } });
    // B may still remember A as alive for a moment (its record is cached for a second).
    const answer = await eventually(
      'B serves the downloads of A’s ended session',
      async () => {
        const response = await zip();
        if (response.status === 200) return response;
        await response.arrayBuffer();
        return false;
      },
      15_000,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(await zipEntries(Buffer.from(await answer.arrayBuffer()))).toEqual({
      'report.csv': 'made,on\nA,1\n',
    });

    // Its network too (SPEC §18): the HAR A captured is served by B, complete, after A has stopped.
    const har = await callInstance(b, 'GET', `${sessions()}/${id}/har`, user.token);
    expect(har.status, JSON.stringify(har.body)).toBe(200);
    const log = har.body.log as {
      _ended: boolean;
      entries: Array<{ request: { url: string }; response: { status: number } }>;
    };
    expect(log._ended).toBe(true);
    expect(log.entries.map((e) => [e.request.url, e.response.status])).toEqual(
      expect.arrayContaining([[`${siteUrl}/files`, 200]]),
    );

    // And its recording: A made the video as the session ended, before it stopped; B serves it.
    const replay = await callInstance(b, 'GET', `${sessions()}/${id}/replay`, user.token);
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body).toMatchObject({ status: 'READY', pages: [expect.objectContaining({ pageId: '0' })] });
    const video = await fetch(`${b.url}${sessions()}/${id}/replay/0.mp4`, {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(video.status).toBe(200);
    expect(Buffer.from(await video.arrayBuffer()).toString('latin1', 4, 8)).toBe('ftyp');
  }, 150_000);
});

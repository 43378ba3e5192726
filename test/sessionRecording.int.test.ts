import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Browserbase from '@browserbasehq/sdk';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pixelAt,
  probe,
  topLevelBoxes,
} from '../packages/adapters/src/browsers/cdp/recording/testing/videoProbe.ts';
import { eventually } from './instancesApi.ts';
import { givenProjectApiKey } from './projectApiKey.ts';
import { request } from './runsApi.ts';
import { serverForTests } from './serverProcess.ts';

interface ReplayJson {
  status: string;
  bytes: number;
  capped: boolean;
  error: string | null;
  pages: Array<{
    pageId: string;
    url: string;
    title: string;
    startTimeMs: number;
    endTimeMs: number | null;
    width: number;
    height: number;
    frames: number;
    hlsUrl: string | null;
    mp4Url: string | null;
  }>;
}

/**
 * The test's site: `/redblue` is red from its load for 2 s and blue after, and says when it turned
 * red (the page's wall clock, the machine's); `/other` is a plain second tab.
 */
function site(): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.writeHead(200, { 'Content-Type': 'text/html' });
    if (path === '/noise') {
      // Every animation frame, a canvas of random pixels: large frames that never stop coming.
      res.end(
        '<!doctype html><title>noise</title><style>body{margin:0}</style><canvas id=c width=800 height=600></canvas>' +
          "<script>const c = document.getElementById('c').getContext('2d'); const img = c.createImageData(800, 600);" +
          'function draw() { for (let i = 0; i < img.data.length; i++) img.data[i] = Math.random() * 256;' +
          'c.putImageData(img, 0, 0); requestAnimationFrame(draw); } draw();</script>',
      );
    } else if (path === '/spin') {
      // A small square that changes colour every animation frame: many small frames.
      res.end(
        '<!doctype html><title>spin</title><div id=d style="width:50px;height:50px"></div><script>' +
          "let n = 0; const d = document.getElementById('d');" +
          "function step() { d.style.background = 'hsl(' + (n++ % 360) + ' 90% 50%)'; requestAnimationFrame(step); } step();" +
          '</script>',
      );
    } else if (path === '/redblue') {
      res.end(
        '<!doctype html><title>red then blue</title><style>html,body{margin:0;height:100%;background:#f00}</style>' +
          '<script>requestAnimationFrame(() => { window.redAt = Date.now(); setTimeout(() => {' +
          "document.body.style.background = '#00f'; document.documentElement.style.background = '#00f';" +
          'window.blueAt = Date.now(); }, 2000); });</script>',
      );
    } else {
      res.end('<!doctype html><title>other tab</title><p>second tab</p>');
    }
  });
}

/**
 * SPEC §18, recording: a local session started through the server as `npm start` runs it is
 * recorded over CDP, each tab's video made with ffmpeg once it ends, and served on both dialects:
 * the native replay routes and the Browserbase SDK's `replays` and `recording.downloads`.
 */
describe('a session’s recording', () => {
  let web: Server;
  let siteUrl = '';
  let sitePort = 0;
  let work = '';
  beforeAll(async () => {
    web = site();
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    sitePort = (web.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}`;
    work = await mkdtemp(join(tmpdir(), 'browserdeck-recording-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => web?.close(resolve));
    await rm(work, { recursive: true, force: true });
  });
  const held = serverForTests('recording', () => ({
    LOCAL_WARM_BROWSERS: '0',
    EGRESS_ALLOW: `127.0.0.1:${sitePort}`,
  }));

  it('records each tab: red then blue plays at its real moments, two tabs give two pages, served natively and to the SDK', async () => {
    const given = await givenProjectApiKey(held.server, 'recording@example.com');
    const bb = new Browserbase({ apiKey: given.key, baseURL: held.server.url, maxRetries: 0 });
    const key = { 'X-BB-API-Key': given.key };
    const session = await bb.sessions.create({ projectId: given.projectId, keepAlive: true });
    const base = `/v1/local/projects/${given.projectId}/sessions/${session.id}`;
    const replay = () => request<ReplayJson>(held.server.url, 'GET', `${base}/replay`, undefined, key);
    let redAt = 0;
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${siteUrl}/redblue`);
      await page.waitForFunction('window.blueAt !== undefined');
      redAt = Number(await page.evaluate('window.redAt'));
      const second = await context.newPage();
      await second.goto(`${siteUrl}/other`);
      // While it runs: RECORDING, and its videos are refused with 409 on both dialects.
      expect((await replay()).body.status).toBe('RECORDING');
      const early = await request(held.server.url, 'GET', `${base}/replay/0.mp4`, undefined, key);
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 'session_active' });
      await expect(bb.sessions.replays.retrieve(session.id)).rejects.toMatchObject({ status: 409 });
      await expect(bb.sessions.recording.downloads.list(session.id)).rejects.toMatchObject({ status: 409 });
      // The blue page stays on screen past 3 s of its video before the session ends.
      await page.waitForFunction('Date.now() - window.redAt > 4000');
    } finally {
      await browser.close().catch(() => {});
    }
    await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE', projectId: given.projectId });

    const ready = await eventually('the videos are made', async () => {
      const answer = await replay();
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.status, JSON.stringify(answer.body)).not.toBe('FAILED');
      return answer.body.status === 'READY' ? answer.body : false;
    });
    expect(ready.pages.map((p) => p.url)).toEqual([`${siteUrl}/redblue`, `${siteUrl}/other`]);
    expect(ready.pages.map((p) => p.title)).toEqual(['red then blue', 'other tab']);
    const [first] = ready.pages;
    expect(first!.mp4Url).toBe(`${held.server.url}${base}/replay/0.mp4`);
    expect(first!.frames).toBeGreaterThan(1);

    // The MP4: H.264, yuv420p, +faststart, red 1 s after the page turned red and blue at 3 s.
    const mp4 = await fetch(first!.mp4Url!, { headers: key });
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const mp4Bytes = Buffer.from(await mp4.arrayBuffer());
    const mp4File = join(work, 'tab0.mp4');
    await writeFile(mp4File, mp4Bytes);
    const boxes = topLevelBoxes(mp4Bytes);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const probed = await probe(mp4File);
    expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
    const { width, height } = probed.streams[0]!;
    const at = (afterRedMs: number) => (redAt + afterRedMs - first!.startTimeMs) / 1000;
    const centre = (seconds: number) => pixelAt(mp4File, seconds, width / 2, height / 2, width);
    const red = await centre(at(1000));
    expect(red.r, JSON.stringify(red)).toBeGreaterThan(200);
    expect(red.b, JSON.stringify(red)).toBeLessThan(60);
    const blue = await centre(at(3000));
    expect(blue.b, JSON.stringify(blue)).toBeGreaterThan(200);
    expect(blue.r, JSON.stringify(blue)).toBeLessThan(60);

    // The SDK: replays.retrieve names both tabs; retrievePage is an HLS VOD playlist whose segments play.
    const replays = await bb.sessions.replays.retrieve(session.id);
    expect(replays.pageCount).toBe(2);
    expect(replays.pages.map((p) => p.pageId)).toEqual(['0', '1']);
    expect(replays.pages[0]).toMatchObject({ url: `${siteUrl}/redblue`, startTimeMs: first!.startTimeMs });
    const playlist = await (await bb.sessions.replays.retrievePage(session.id, '0')).text();
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    const playlistFile = join(work, 'tab0.m3u8');
    await writeFile(playlistFile, playlist);
    // The segments are short-lived links: ffprobe fetches them with no key.
    const hls = await probe(playlistFile, ['-protocol_whitelist', 'file,http,tcp']);
    expect(hls.streams[0]).toMatchObject({ codec_name: 'h264' });
    expect(Number(hls.format.duration)).toBeGreaterThan(3);

    // recording.downloads: NOT_REQUESTED, then create answers every page PENDING, and list COMPLETED with a signed URL.
    expect((await bb.sessions.recording.downloads.list(session.id)).downloads.map((d) => d.status)).toEqual([
      'NOT_REQUESTED',
      'NOT_REQUESTED',
    ]);
    const created = await bb.sessions.recording.downloads.create(session.id);
    expect(created.downloads).toEqual([
      { pageId: '0', status: 'PENDING' },
      { pageId: '1', status: 'PENDING' },
    ]);
    const listed = await bb.sessions.recording.downloads.list(session.id);
    expect(listed.downloads.map((d) => d.status)).toEqual(['COMPLETED', 'COMPLETED']);
    const download = await fetch(listed.downloads[0]!.downloadUrl!);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(mp4Bytes)).toBe(true);
    // A changed link is refused.
    const forged = await fetch(listed.downloads[0]!.downloadUrl!.replace(/\/video\.mp4$/, 'x/video.mp4'));
    expect(forged.status).toBe(401);

    // The rrweb route names the replay routes.
    const rrweb = await request<{ message?: string }>(
      held.server.url,
      'GET',
      `/v1/sessions/${session.id}/recording`,
      undefined,
      key,
    );
    expect(rrweb.status).toBe(422);
    expect(JSON.stringify(rrweb.body)).toContain('/v1/sessions/{id}/replays');
  }, 180_000);

  it('does not record a session created with recordSession: false or record: false (422 on the SDK, NONE natively)', async () => {
    const given = await givenProjectApiKey(held.server, 'unrecorded@example.com');
    const bb = new Browserbase({ apiKey: given.key, baseURL: held.server.url, maxRetries: 0 });
    const key = { 'X-BB-API-Key': given.key };
    const session = await bb.sessions.create({
      projectId: given.projectId,
      keepAlive: true,
      browserSettings: { recordSession: false },
    });
    await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE', projectId: given.projectId });
    await expect(bb.sessions.recording.downloads.list(session.id)).rejects.toMatchObject({ status: 422 });
    await expect(bb.sessions.replays.retrieve(session.id)).rejects.toMatchObject({ status: 422 });
    const base = `/v1/local/projects/${given.projectId}/sessions`;
    const native = await request<{ id: string }>(held.server.url, 'POST', base, { record: false }, key);
    expect(native.status, JSON.stringify(native.body)).toBe(201);
    const replay = await request<ReplayJson>(
      held.server.url,
      'GET',
      `${base}/${native.body.id}/replay`,
      undefined,
      key,
    );
    expect(replay.body).toMatchObject({ status: 'NONE', pages: [] });
    const bad = await request(held.server.url, 'POST', base, { record: 'no' }, key);
    expect(bad.status).toBe(400);
  }, 120_000);
});

/**
 * SPEC §18, bounds: a page that animates without end costs at most the frame-rate cap (10 a second
 * per tab), and past `RECORDING_MAX_MB` recording stops, the replay says so and the logs get a
 * system entry; the video of what was kept is still made.
 */
describe('a recording’s bounds under an endlessly animating page', () => {
  let web: Server;
  let siteUrl = '';
  let sitePort = 0;
  beforeAll(async () => {
    web = site();
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    sitePort = (web.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}`;
  });
  afterAll(() => new Promise((resolve) => web?.close(resolve)));
  const held = serverForTests('recording-bounds', () => ({
    LOCAL_WARM_BROWSERS: '0',
    EGRESS_ALLOW: `127.0.0.1:${sitePort}`,
    RECORDING_MAX_MB: '1',
  }));

  /** Opens `path` in a new session for at least `ms`, then releases it: the session's replay once READY. */
  async function recordFor(user: Awaited<ReturnType<typeof givenProjectApiKey>>, path: string, ms: number) {
    const key = { 'X-BB-API-Key': user.key };
    const base = `/v1/local/projects/${user.projectId}/sessions`;
    const created = await request<{ id: string; connectUrl: string }>(held.server.url, 'POST', base, {}, key);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const browser = await chromium.connectOverCDP(created.body.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.goto(`${siteUrl}${path}`);
      const until = Date.now() + ms;
      await page.waitForFunction(`Date.now() > ${until}`, undefined, { polling: 200 });
    } finally {
      await browser.close().catch(() => {});
    }
    await request(held.server.url, 'POST', `${base}/${created.body.id}:release`, undefined, key);
    const replay = await eventually('the videos are made', async () => {
      const answer = await request<ReplayJson>(
        held.server.url,
        'GET',
        `${base}/${created.body.id}/replay`,
        undefined,
        key,
      );
      return answer.body.status === 'READY' || answer.body.status === 'FAILED' ? answer.body : false;
    });
    const logs = await request<Array<{ method: string }>>(
      held.server.url,
      'GET',
      `/v1/sessions/${created.body.id}/logs`,
      undefined,
      key,
    );
    return { replay, methods: logs.body.map((entry) => entry.method) };
  }

  it('keeps at most 10 frames a second of a page that never stops changing', async () => {
    const user = await givenProjectApiKey(held.server, 'spin@example.com');
    const { replay, methods } = await recordFor(user, '/spin', 3000);
    expect(replay.status, JSON.stringify(replay)).toBe('READY');
    expect(replay.capped).toBe(false);
    const [tab] = replay.pages;
    const seconds = ((tab!.endTimeMs ?? 0) - tab!.startTimeMs) / 1000;
    expect(seconds).toBeGreaterThan(2.5);
    // It animates, so frames keep coming, and never faster than the cap (the first frame is at 0 s).
    expect(tab!.frames).toBeGreaterThan(5);
    expect(tab!.frames).toBeLessThanOrEqual(Math.floor(seconds * 10) + 1);
    expect(methods).not.toContain('Browserdeck.recordingCapped');
  }, 120_000);

  it('stops at RECORDING_MAX_MB, says so in the replay and the logs, and still makes the video', async () => {
    const user = await givenProjectApiKey(held.server, 'noise@example.com');
    const { replay, methods } = await recordFor(user, '/noise', 4000);
    expect(replay.status, JSON.stringify(replay)).toBe('READY');
    expect(replay.capped).toBe(true);
    expect(replay.bytes).toBeGreaterThan(0);
    expect(replay.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(methods.filter((method) => method === 'Browserdeck.recordingCapped')).toHaveLength(1);
    expect(replay.pages[0]!.frames).toBeGreaterThan(0);
  }, 120_000);
});

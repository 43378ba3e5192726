import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjectApiKey } from './projectApiKey.ts';
import { runNodeScript } from './runNodeScript.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

const START = resolve(import.meta.dirname, 'stagehand4Start.ts');
/** A loopback port nothing listens on: where anything bound off the machine is sent to fail. */
const DEAD_END = 'http://127.0.0.1:9';

interface Stagehand4Run {
  sessionId: string;
  title: string;
  requests: string[];
}

describe('Stagehand 4 against npm start’s server (local Chromium, its extension loaded)', () => {
  let server: ServerProcess;
  let site: Server;
  let siteUrl: string;
  let dir: string;

  beforeAll(async () => {
    site = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>stagehand 4</title><p>hello'),
    );
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const sitePort = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}/`;
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-stagehand4-'));
    // The test site's port only: the service's own address stays refused to pages (the session's own
    // connect endpoint is opened to its browser by the provider, for the extension).
    server = await startServerProcess({ DATA_DIR: dir, EGRESS_ALLOW: `127.0.0.1:${sitePort}` });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise((done) => site?.close(done));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('launches with its extension, drives a page and closes cleanly (release, then the extension deleted)', async () => {
    const { projectId, key } = await givenProjectApiKey(server, 'stagehand4@example.com');
    const out = await runNodeScript(START, {
      HOME: dir,
      BROWSERDECK_URL: server.url,
      BROWSERBASE_API_KEY: key,
      STAGEHAND_PAGE: siteUrl,
      // Anything off the machine ends at a dead loopback port.
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: DEAD_END,
      HTTPS_PROXY: DEAD_END,
      NO_PROXY: '127.0.0.1,localhost',
    });
    const run = JSON.parse(out.trim().split('\n').at(-1) as string) as Stagehand4Run;

    expect(run.title).toBe('stagehand 4');
    const sent = run.requests.map((r) => r.replace(server.url, ''));
    const extensionId = /^DELETE \/v1\/extensions\/(\S+) /.exec(sent.at(-1) ?? '')?.[1];
    expect(sent).toEqual([
      'POST /v1/extensions 201',
      'POST /v1/sessions 201',
      `POST /v1/sessions/${run.sessionId} 200`,
      `DELETE /v1/extensions/${extensionId} 204`,
    ]);

    const session = await fetch(`${server.url}/v1/sessions/${run.sessionId}`, {
      headers: { 'X-BB-API-Key': key },
    });
    expect(await session.json()).toMatchObject({ id: run.sessionId, projectId, status: 'COMPLETED' });
    const extension = await fetch(`${server.url}/v1/extensions/${extensionId}`, {
      headers: { 'X-BB-API-Key': key },
    });
    expect(extension.status).toBe(404);
  }, 120_000);
});

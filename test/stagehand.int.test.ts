import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjectApiKey } from './projectApiKey.ts';
import { runNodeScript } from './runNodeScript.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

const START = resolve(import.meta.dirname, 'stagehandStart.ts');
/** A loopback port nothing listens on: where anything bound off the machine is sent to fail. */
const DEAD_END = 'http://127.0.0.1:9';

interface StagehandRun {
  sessionId: string;
  title: string;
  viewport: [number, number];
  requests: string[];
}

/**
 * Runs test/stagehandStart.ts with only the variables a Stagehand user sets, and no model key. Without
 * `--conditions=source`: some of Stagehand's dependencies (eventsource-parser) export TypeScript
 * sources under that condition, which Node does not strip inside node_modules.
 */
async function runStagehand(env: Record<string, string>): Promise<StagehandRun> {
  const out = await runNodeScript(START, {
    ...env,
    STAGEHAND_PAGE: 'data:text/html,<title>stagehand</title>',
    // Stagehand's hosted API and anything else off the machine end at a dead loopback port.
    STAGEHAND_API_URL: DEAD_END,
    NODE_USE_ENV_PROXY: '1',
    HTTP_PROXY: DEAD_END,
    HTTPS_PROXY: DEAD_END,
    NO_PROXY: '127.0.0.1,localhost',
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as StagehandRun;
}

describe('Stagehand 3 against npm start’s server (local Chromium)', () => {
  let server: ServerProcess;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-stagehand-'));
    server = await startServerProcess({ DATA_DIR: dir, LOCAL_WARM_BROWSERS: '0' });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts a session with init() and drives a page; the session is Browserdeck’s and ends when close() disconnects', async () => {
    const { projectId, key } = await givenProjectApiKey(server, 'stagehand@example.com');
    const run = await runStagehand({
      HOME: dir,
      BROWSERBASE_BASE_URL: server.url,
      BROWSERBASE_API_KEY: key,
      BROWSERBASE_PROJECT_ID: projectId,
    });

    expect(run.title).toBe('stagehand');
    expect(run.viewport).toEqual([1288, 711]);
    // Its whole init: create, then the debugger URLs (the SDK retries a 5xx there, and Stagehand ignores
    // a failure); no model, no hosted Stagehand API, nothing off the machine.
    const sent = run.requests.map((r) => r.replace(server.url, ''));
    expect(sent[0]).toBe('POST /v1/sessions');
    expect(new Set(sent.slice(1))).toEqual(new Set([`GET /v1/sessions/${run.sessionId}/debug`]));

    const native = await fetch(`${server.url}/v1/local/projects/${projectId}/sessions/${run.sessionId}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(native.status).toBe(200);
    expect(await native.json()).toMatchObject({ id: run.sessionId, provider: 'local' });
    const compat = await fetch(`${server.url}/v1/sessions/${run.sessionId}`, {
      headers: { 'X-BB-API-Key': key },
    });
    expect(compat.status).toBe(200);
    expect(await compat.json()).toMatchObject({
      id: run.sessionId,
      projectId,
      keepAlive: false,
      userMetadata: { stagehand: 'true' },
    });

    // Stagehand's close() with disableAPI releases nothing: without keepAlive, the disconnect ends it.
    await expect
      .poll(
        async () => {
          const res = await fetch(`${server.url}/v1/local/projects/${projectId}/sessions/${run.sessionId}`, {
            headers: { Authorization: `Bearer ${key}` },
          });
          return ((await res.json()) as { status: string }).status;
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe('COMPLETED');
  }, 90_000);
});

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { type RunningServer, startServer } from './startServer.ts';

describe('a worker-only process (npm run worker)', () => {
  let dataDir: string;
  let running: RunningServer | undefined;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'browserdeck-worker-'));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves its probes and metrics, and no API route', async () => {
    // Browserbase (never called here) keeps Chromium out of it.
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_API_KEY: 'bb_test',
      BROWSERBASE_PROJECT_ID: 'proj',
    });
    running = await startServer(config, pino({ level: 'silent' }), { workerOnly: true });
    const { url } = running;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ok' });
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('browserdeck_run_queue_depth 0\n');
    expect(text).toContain('browserdeck_runs{status="QUEUED"} 0\n');
    for (const path of ['/v1/projects', '/openapi.json', '/docs', '/console/', '/v1/auth/signup']) {
      const res = await fetch(`${url}${path}`, { method: path.includes('signup') ? 'POST' : 'GET' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/problem+json');
    }
  });

  it('refuses to start with RUN_WORKER=false, naming it', async () => {
    const main = resolve(import.meta.dirname, 'main.ts');
    const child = spawn(process.execPath, ['--conditions=source', main, '--worker'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', RUN_WORKER: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(1);
    expect(output).toContain('RUN_WORKER: must not be false for a worker (npm run worker)');
  });
});

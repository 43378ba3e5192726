import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Browserbase from '@browserbasehq/sdk';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './freePort.ts';
import {
  BASE_TAG,
  BUBBLEWRAP_SETTINGS,
  buildImage,
  containerLogs,
  ensureBaseImage,
  ensurePodman,
  IMAGE_TAG,
  podman,
  runDetached,
} from './podman.ts';
import { givenProjectApiKey } from './projectApiKey.ts';

/**
 * docs/deploy.md, for real: the repository's Dockerfile built on a Debian 12 base made from Debian's
 * packages (deploy/debian-base.sh), run with podman with the settings the docs give for the
 * `bubblewrap` level, and used from outside the container as a client would: sign-up, a session,
 * Playwright on its `connectUrl`, a saved context. Then SIGTERM, and a new container on the same
 * volume still has the account and the context.
 */

const TAG = IMAGE_TAG;
/** `docker stop`'s and `podman stop`'s default wait before SIGKILL; the image's grace is 8 s. */
const STOP_TIMEOUT_SEC = 10;

const log = (line: string) => console.log(`[image] ${line}`);
const scratch = mkdtempSync(join(tmpdir(), 'browserdeck-image-'));
const containers: string[] = [];

beforeAll(async () => {
  await ensurePodman(log);
  await ensureBaseImage(log);
  log(`building ${TAG} from the Dockerfile on ${BASE_TAG}…`);
  await buildImage(TAG, scratch, log);
}, 40 * 60_000);

afterAll(async () => {
  for (const name of containers) await podman(['rm', '-f', '-t', '0', name]).catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Starts a container of the image on a free loopback port with a data folder of its own (`data`
 * names it: the same name is the same volume); resolves once /readyz answers 200 (unless `ready`
 * is false).
 */
async function startContainer(extra: readonly string[], options: { data?: string; ready?: boolean } = {}) {
  const port = await freePort();
  const name = `browserdeck-test-${process.pid}-${containers.length}`;
  containers.push(name);
  const url = `http://127.0.0.1:${port}`;
  const volume = join(scratch, options.data ?? 'data');
  mkdirSync(volume, { recursive: true });
  await runDetached({ name, image: TAG, volume, env: { PORT: String(port), PUBLIC_URL: url }, extra });
  const container = { name, url, logs: () => containerLogs(name) };
  if (options.ready === false) return container;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return container;
    const state = (await podman(['inspect', '-f', '{{.State.Status}}', name])).trim();
    if (state !== 'running' || Date.now() > deadline)
      throw new Error(`container ${name} is ${state}, not ready:\n${await container.logs()}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

describe('the container image (Dockerfile), run with podman', () => {
  let given: Awaited<ReturnType<typeof givenProjectApiKey>>;
  let contextId: string;

  it('serves a confined browser to Playwright from outside, and saves a context to the volume', async () => {
    const container = await startContainer(BUBBLEWRAP_SETTINGS);
    // The image's own health check, as the runtime runs it.
    await podman(['healthcheck', 'run', container.name]);
    const logs = await container.logs();
    expect(logs).toContain('local provider: browsers run with isolation level bubblewrap');
    // With SYS_ADMIN, every session gets its size-limited disk: no disk in the not-in-force list.
    expect(logs).not.toMatch(/WITHOUT these limits:[^"]*disk/);

    given = await givenProjectApiKey({ url: container.url }, `image-${Date.now()}@example.com`);
    const bb = new Browserbase({ apiKey: given.key, baseURL: container.url, maxRetries: 0 });
    const context = await bb.contexts.create({ projectId: given.projectId });
    contextId = context.id;
    const session = await bb.sessions.create({
      projectId: given.projectId,
      browserSettings: { context: { id: contextId, persist: true } },
    });
    expect(session.connectUrl.startsWith(`ws://127.0.0.1:${new URL(container.url).port}/`)).toBe(true);
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await browser.contexts()[0]!.addCookies([
      {
        name: 'deck',
        value: 'kept',
        url: 'https://shop.example/',
        expires: Math.floor(Date.now() / 1000) + 3600,
      },
    ]);

    // The browser runs inside the container, inside bubblewrap, as the unprivileged browser user.
    const processes = await podman(['top', container.name, 'user', 'args']);
    const bwrap = processes.split('\n').filter((line) => /\bbwrap\b/.test(line));
    expect(bwrap.length).toBeGreaterThan(0);
    expect(bwrap.every((line) => line.startsWith('browserdeck-browser'))).toBe(true);

    await bb.sessions.update(session.id, { projectId: given.projectId, status: 'REQUEST_RELEASE' });
    await browser.close().catch(() => {});

    // docs/deploy.md's operations inside the image, which has Node but no npm: keys, and a backup.
    const keys = await podman(['exec', container.name, 'node', 'examples/server/src/generateKeys.ts']);
    expect(keys).toMatch(/^SECRET_KEY=[A-Za-z0-9_-]{43}$/m);
    expect(keys).toMatch(/^JWT_PRIVATE_KEY=-----BEGIN PRIVATE KEY-----\\n/m);
    await podman([
      'exec',
      container.name,
      'node',
      '--disable-warning=ExperimentalWarning',
      '--conditions=source',
      'examples/server/src/backup.ts',
      '/tmp/backup',
    ]);
    const backedUp = await podman(['exec', container.name, 'ls', '/tmp/backup']);
    expect(backedUp.split('\n')).toEqual(
      expect.arrayContaining(['backup.json', 'browserdeck.sqlite', 'secret.key']),
    );

    // SIGTERM, and the server is gone within the grace: exit 0, not the runtime's SIGKILL (137).
    await podman(['stop', '-t', String(STOP_TIMEOUT_SEC), container.name], (STOP_TIMEOUT_SEC + 30) * 1000);
    const exit = (await podman(['inspect', '-f', '{{.State.ExitCode}}', container.name])).trim();
    expect(exit, await container.logs()).toBe('0');
    const stopped = await container.logs();
    expect(stopped).toContain('"signal":"SIGTERM","graceSec":8');
    expect(stopped).toContain('"msg":"stopped"');
  }, 300_000);

  it('starts again on the same volume with the account and the saved context', async () => {
    expect(contextId).toBeDefined();
    const container = await startContainer(BUBBLEWRAP_SETTINGS);
    const signIn = await fetch(`${container.url}/v1/auth/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: given.email, password: 'password-123' }),
    });
    expect(signIn.status).toBe(200);
    const bb = new Browserbase({ apiKey: given.key, baseURL: container.url, maxRetries: 0 });
    const session = await bb.sessions.create({
      projectId: given.projectId,
      browserSettings: { context: { id: contextId, persist: false } },
    });
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const cookies = await browser.contexts()[0]!.cookies('https://shop.example/');
    expect(cookies.map((c) => [c.name, c.value])).toEqual([['deck', 'kept']]);
    await bb.sessions.update(session.id, { projectId: given.projectId, status: 'REQUEST_RELEASE' });
    await browser.close().catch(() => {});
  }, 300_000);

  it('without the settings, refuses to start confined and says why; asked to run unconfined, says so and serves', async () => {
    // A plain `run`: no SYS_ADMIN, the default seccomp profile, masked /proc paths.
    const refused = await startContainer([], { data: 'bare', ready: false });
    const exitCode = await podman(['wait', refused.name], 60_000);
    expect(exitCode.trim()).toBe('1');
    const why = await refused.logs();
    expect(why).toContain(
      'Browserdeck could not start: Local browser isolation (LOCAL_ISOLATION=on) cannot be set up',
    );
    expect(why).toContain('--cap-add=SYS_ADMIN');

    // LOCAL_ISOLATION=off, asked for: it serves, and the start-up lines say what is not in force.
    // The session disk is one of them (no mount without SYS_ADMIN): a create is 201, never a 500.
    const unconfined = await startContainer(['-e', 'LOCAL_ISOLATION=off'], { data: 'bare-off' });
    const logs = await unconfined.logs();
    expect(logs).toContain('LOCAL_ISOLATION=off: local browsers run UNCONFINED');
    expect(logs).toMatch(/WITHOUT these limits:[^"]*disk \(mounting a size-limited tmpfs was refused/);
    const user = await givenProjectApiKey({ url: unconfined.url }, `bare-${Date.now()}@example.com`);
    const bb = new Browserbase({ apiKey: user.key, baseURL: unconfined.url, maxRetries: 0 });
    const session = await bb.sessions.create({ projectId: user.projectId });
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await bb.sessions.update(session.id, { projectId: user.projectId, status: 'REQUEST_RELEASE' });
    await browser.close().catch(() => {});
  }, 300_000);
});

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProviderError, SESSION_LOG_ENTRY_MAX_BYTES, type SessionLogEntry } from '@browserdeck/domain';
import {
  browserRequest,
  eventually,
  makeScratchDir,
  processesUsing,
  processTree,
  requireChromium,
  startLocalProvider,
  tempProfilesIn,
  upgradeStatus,
} from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOGS_DROPPED_METHOD } from '../cdp/logs/SessionLogBuffer.ts';
import type { LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';

describe('LocalChromiumProvider: lifecycle and capacity (real Chromium)', () => {
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    await requireChromium();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(options: Partial<LocalChromiumProviderOptions> = {}) {
    const { provider, dataDir, close } = await startLocalProvider({
      // The page server is on loopback, which the egress proxy refuses unless allowed.
      egress: { allow: ['127.0.0.1/32'] },
      ...options,
    });
    cleanups.push(close);
    return { provider, scratch: { dir: dataDir } };
  }

  it('ends a session that outlives its timeout as TIMED_OUT and kills its browser', async () => {
    const { provider, scratch } = await setUp({ minTimeoutSec: 1 });
    const session = await provider.create(browserRequest({ timeoutSec: 1 }));
    expect(session.expiresAt!.getTime() - session.startedAt.getTime()).toBe(1000);
    await eventually(async () => (await provider.get(session.providerSessionId))?.status !== 'RUNNING');
    const ended = await provider.get(session.providerSessionId);
    expect(ended).toMatchObject({ status: 'TIMED_OUT', endedAt: expect.any(Date) });
    await eventually(async () => (await processesUsing(scratch.dir)).length === 0);
    expect(await upgradeStatus(session.connectUrl)).toBe(409);
  });

  it('raises a timeout shorter than minTimeoutSec to it', async () => {
    const { provider } = await setUp({ minTimeoutSec: 60 });
    const session = await provider.create(browserRequest({ timeoutSec: 5 }));
    expect(session.expiresAt!.getTime() - session.startedAt.getTime()).toBe(60_000);
  });

  it('reports a browser killed from outside as ERROR', async () => {
    const { provider, scratch } = await setUp();
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const tree = await processTree(provider.inspect(session.providerSessionId)!.pid);
    // The browser's main process (inside its confinement), not a renderer or a launcher.
    const main = tree.find((p) => /chrom/i.test(p.cmdline.split(' ')[0]!) && !p.cmdline.includes('--type='))!;
    const disconnected = new Promise<void>((done) => browser.once('disconnected', () => done()));
    process.kill(main.pid, 'SIGKILL');
    await eventually(async () => (await provider.get(session.providerSessionId))?.status !== 'RUNNING');
    expect(await provider.get(session.providerSessionId)).toMatchObject({
      status: 'ERROR',
      endedAt: expect.any(Date),
    });
    // The client hears of it: its connection is closed (an event, which may come after the status).
    await disconnected;
    await eventually(async () => (await processesUsing(scratch.dir)).length === 0);
    // The profile is removed once the browser has exited (a full Chromium's takes longer to remove).
    await eventually(async () => (await tempProfilesIn(scratch.dir)).length === 0);
    // A terminal status is final: releasing afterwards changes nothing.
    expect(await provider.release(session.providerSessionId)).toMatchObject({ status: 'ERROR' });
  });

  it('reports a browser closed by its client (Browser.close) as COMPLETED', async () => {
    const { provider, scratch } = await setUp();
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.close').catch(() => {});
    await eventually(async () => (await provider.get(session.providerSessionId))?.status !== 'RUNNING');
    expect(await provider.get(session.providerSessionId)).toMatchObject({ status: 'COMPLETED' });
    await eventually(async () => (await tempProfilesIn(scratch.dir)).length === 0);
  });

  it('cuts each log entry to 16 KiB and keeps the session within its log budget, oldest dropped first', async () => {
    const budget = 64 * 1024;
    const { provider } = await setUp({ sessionLogMaxBytes: budget });
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.evaluate(() => {
      for (let i = 0; i < 20; i++) console.log(`flood ${i} ${'x'.repeat(1_000_000)}`);
      console.log('flood done');
    });
    const lastValue = (logs: SessionLogEntry[]) =>
      (logs.at(-1)?.request?.params?.args as Array<{ value?: string }> | undefined)?.[0]?.value;
    await eventually(async () => lastValue(await provider.logs(session.providerSessionId)) === 'flood done');
    const [first, ...rest] = await provider.logs(session.providerSessionId);
    expect(first).toMatchObject({
      method: LOGS_DROPPED_METHOD,
      request: { params: { droppedEntries: expect.any(Number), budgetBytes: budget } },
    });
    const sizes = rest.map((entry) => Buffer.byteLength(JSON.stringify(entry)));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(SESSION_LOG_ENTRY_MAX_BYTES);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(budget);
    const flood = rest.filter((entry) => JSON.stringify(entry).includes('flood 19'));
    expect(flood).toHaveLength(1);
    expect(JSON.stringify(flood[0])).toMatch(/…\[\d+ characters cut\]/);
  });

  it('refuses sessions beyond maxSessions with provider_rate_limited and a retry delay', async () => {
    const { provider } = await setUp({ maxSessions: 2 });
    const a = await provider.create(browserRequest());
    await provider.create(browserRequest());
    const error = await provider.create(browserRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_rate_limited', retryAfterSec: expect.any(Number) });
    expect((error as ProviderError).retryAfterSec).toBeGreaterThanOrEqual(1);
    await provider.release(a.providerSessionId);
    await expect(provider.create(browserRequest())).resolves.toMatchObject({ status: 'RUNNING' });
  });

  it('counts the fair share per account across its projects, and another account still gets a slot', async () => {
    const { provider } = await setUp({ maxSessions: 4, maxSessionsPerOwner: 2, warmBrowsers: 0 });
    const mine = (projectId: string) => browserRequest({ projectId, ownerId: 'owner-a' });
    const first = await provider.create(mine('project-1'));
    await provider.create(mine('project-2'));
    const refused = await provider.create(mine('project-3')).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'provider_rate_limited',
      message: expect.stringContaining('LOCAL_MAX_SESSIONS_PER_OWNER'),
      retryAfterSec: expect.any(Number),
    });
    expect(provider.usage.sessions).toBe(2);
    await expect(
      provider.create(browserRequest({ projectId: 'project-9', ownerId: 'owner-b' })),
    ).resolves.toMatchObject({
      status: 'RUNNING',
    });
    // A session that ends gives its account's slot back at once.
    await provider.release(first.providerSessionId);
    await expect(provider.create(mine('project-3'))).resolves.toMatchObject({ status: 'RUNNING' });
  });

  it('keeps warm browsers inside maxSessions and hands them out first', async () => {
    const { provider, scratch } = await setUp({ maxSessions: 2, warmBrowsers: 1 });
    expect(provider.usage).toEqual({ sessions: 0, warm: 1 });
    const [warmPid] = await mainBrowserPids(scratch.dir);
    const session = await provider.create(browserRequest());
    expect(provider.inspect(session.providerSessionId)!.pid).toBe(warmPid);
    expect(await provider.logs(session.providerSessionId)).toEqual([]);
    await provider.warmPoolSettled();
    expect(provider.usage).toEqual({ sessions: 1, warm: 1 });
    // The last slot is held by the warm browser: a context session (which needs its own profile) evicts it.
    await provider.create(browserRequest({ contextId: 'needs-its-profile' }));
    expect(provider.usage).toEqual({ sessions: 2, warm: 0 });
    expect((await mainBrowserPids(scratch.dir)).length).toBe(2);
  });

  it('close() stops every browser and removes every temporary profile', async () => {
    const { provider, scratch } = await setUp({ maxSessions: 3, warmBrowsers: 1 });
    const session = await provider.create(browserRequest());
    await provider.create(browserRequest({ contextId: 'kept' }));
    await provider.warmPoolSettled();
    expect((await mainBrowserPids(scratch.dir)).length).toBe(3);
    // The session's, the warm browser's, and the staged copy the context 'kept' runs on (its disk is limited).
    expect((await tempProfilesIn(scratch.dir)).length).toBe(3);
    await provider.close();
    expect(await processesUsing(scratch.dir)).toEqual([]);
    expect(await tempProfilesIn(scratch.dir)).toEqual([]);
    expect(await provider.get(session.providerSessionId)).toMatchObject({ status: 'COMPLETED' });
    await expect(provider.create(browserRequest())).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it('close() waits for a create under way, and leaves no temporary profile behind', async () => {
    const { provider, scratch } = await setUp({ maxSessions: 3, warmBrowsers: 0 });
    const released = await provider.create(browserRequest());
    await provider.release(released.providerSessionId);
    await provider.create(browserRequest());
    // No warm browser: this create launches one, and is still at it when close() begins.
    const underWay = provider.create(browserRequest()).catch((e: unknown) => e);
    await eventually(async () => (await tempProfilesIn(scratch.dir)).length === 2);
    await provider.close();
    expect(await tempProfilesIn(scratch.dir)).toEqual([]);
    expect(await underWay).toMatchObject({ code: 'provider_unavailable' });
    await eventually(async () => (await processesUsing(scratch.dir)).length === 0);
  });

  it('leaves no temporary profile when the process exits without close()', async () => {
    const scratch = await makeScratchDir();
    cleanups.push(scratch.remove);
    const service = spawnServiceWithBrowsers(
      scratch.dir,
      `console.log(JSON.stringify({ profiles: (await import('node:fs')).readdirSync(${JSON.stringify(scratch.dir)}).length }));
      process.exit(0);`,
    );
    let output = '';
    service.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => service.once('exit', resolve));
    expect(code).toBe(0);
    // Two browsers had their profiles (the session's and the warm one's), and none is left.
    expect(JSON.parse(output)).toEqual({ profiles: 2 });
    expect(await tempProfilesIn(scratch.dir)).toEqual([]);
    await eventually(async () => (await processesUsing(scratch.dir)).length === 0);
  });

  it('browsers die with the service even when it is killed outright (SIGKILL)', async () => {
    const scratch = await makeScratchDir();
    cleanups.push(scratch.remove);
    const service = spawnServiceWithBrowsers(
      scratch.dir,
      `console.log('ready');
      setInterval(() => {}, 1000);`,
    );
    await new Promise<void>((resolve, reject) => {
      service.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      service.once('exit', (code) => reject(new Error(`the service exited early (${code})`)));
    });
    expect((await mainBrowserPids(scratch.dir)).length).toBe(2);
    service.kill('SIGKILL');
    await eventually(async () => (await processesUsing(scratch.dir)).length === 0);
    // Its browsers' disks are detached by their clean-up watchdogs once it is gone: then the folder
    // can be removed (before, its removal may meet a disk still mounted: EBUSY).
    await eventually(async () => !(await readFile('/proc/self/mounts', 'utf8')).includes(scratch.dir));
  });

  it('without any browser, create fails with provider_unavailable saying how to provide one', async () => {
    const { provider } = await setUp({
      chromiumSearch: { env: {}, systemPaths: [], useNpmPackage: false, headlessShellPaths: [] },
    });
    const error = await provider.create(browserRequest()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect((error as Error).message).toMatch(/CHROMIUM_PATH.*apt-get install chromium.*@sparticuz\/chromium/);
  });
});

/**
 * A service process with a local provider whose profiles and temporary folders are in `dir`: one
 * session and one warm browser started, then `then` (a module's code) runs.
 */
function spawnServiceWithBrowsers(dir: string, then: string) {
  const script = `
      import { SystemClock } from '@browserdeck/domain';
      import { LocalChromiumProvider } from ${JSON.stringify(join(import.meta.dirname, 'index.ts'))};
      const provider = new LocalChromiumProvider({ publicUrl: 'http://127.0.0.1:1', dataDir: ${JSON.stringify(dir)},
        tempDir: ${JSON.stringify(dir)}, maxSessions: 2, maxSessionsPerOwner: 2, warmBrowsers: 1, clock: new SystemClock() });
      await provider.start();
      await provider.create({ sessionId: 's', projectId: 'p', providerProjectId: 'local', region: 'local',
        timeoutSec: 300, contextId: null, extensionId: null });
      await provider.warmPoolSettled();
      ${then}`;
  return spawn(process.execPath, ['--conditions=source', '--input-type=module', '-e', script], {
    cwd: import.meta.dirname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * The browsers whose profile is under `dir`, one pid each: the leader of its process group (the
 * confinement's launcher) whose parent is not itself one of them (bubblewrap starts a second
 * group inside; children caught between fork and exec with their parent's command line lead none).
 */
async function mainBrowserPids(dir: string): Promise<number[]> {
  const leaders = new Map<number, number>();
  for (const pid of await processesUsing(dir)) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const [ppid, processGroup] = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(1, 3)
      .map(Number);
    if (processGroup === pid) leaders.set(pid, ppid!);
  }
  return [...leaders].filter(([, ppid]) => !leaders.has(ppid)).map(([pid]) => pid);
}

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunLogLineJson, type RunsUser, request, signUpUser } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * A run's confinement end to end (http-api.md §11), through the server started as `npm start`
 * starts it: no network but its browser, no files outside its folder, no processes, its output
 * within the log budget while the server stays healthy, and its heap cap.
 */

/** RUN_MAX_LOG_BYTES, small so the flood is cut fast. */
const MAX_LOG_BYTES = 1024 * 1024;
const LINE_MAX_BYTES = 16 * 1024;

let server: ServerProcess;
let dataDir: string;
let user: RunsUser;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-runs-confined-'));
  server = await startServerProcess(
    { DATA_DIR: dataDir, RUN_MAX_LOG_BYTES: String(MAX_LOG_BYTES), RUN_MEMORY_MB: '64' },
    60_000,
  );
  user = await signUpUser(server.url);
});

afterAll(async () => {
  const code = await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** Runs `script` as an agent with `input` and waits for its end; expects it SUCCEEDED. */
async function result(script: string, input: unknown): Promise<Record<string, string>> {
  const run = (await user.start(await user.agent(script), { input, wait: 60 })).body;
  expect(run, JSON.stringify(run.error)).toMatchObject({ status: 'SUCCEEDED' });
  return run.result as Record<string, string>;
}

describe('a run’s network', () => {
  let loopback: { server: Server; connections: number; port: number };

  beforeAll(async () => {
    // Dual-stack, so it answers on 127.0.0.1 and on [::1] alike.
    const state = {
      server: createServer((socket) => {
        state.connections++;
        socket.destroy();
      }),
      connections: 0,
      port: 0,
    };
    await new Promise<void>((done) => state.server.listen({ port: 0, host: '::', ipv6Only: false }, done));
    state.port = (state.server.address() as { port: number }).port;
    loopback = state;
  });

  afterAll(() => {
    loopback?.server.close();
  });

  it('reaches neither the service, another loopback port nor [::1], by fetch or net.connect', async () => {
    // From the host, both addresses reach the test's server (so only the confinement stops the script).
    for (const host of ['127.0.0.1', '::1']) {
      await new Promise<void>((done, fail) => connect({ host, port: loopback.port }, done).on('error', fail));
    }
    await expect.poll(() => loopback.connections).toBe(2);
    loopback.connections = 0;
    const servicePort = Number(new URL(server.url).port);
    const reached = await result(
      `
const net = await import('node:net');
const attempt = (host, port) => new Promise((resolve) => {
  const socket = net.connect({ host, port, timeout: 5000 }, () => { socket.destroy(); resolve('connected'); });
  socket.on('timeout', () => { socket.destroy(); resolve('timed out'); });
  socket.on('error', (error) => resolve('failed ' + (error.code ?? error.message)));
});
const get = (url) => fetch(url, { signal: AbortSignal.timeout(5000) }).then(
  (response) => 'status ' + response.status,
  (error) => 'failed ' + (error.cause?.code ?? error.name),
);
return {
  connectService: await attempt('127.0.0.1', input.servicePort),
  connectLoopback: await attempt('127.0.0.1', input.loopbackPort),
  connectIpv6: await attempt('::1', input.loopbackPort),
  fetchService: await get('http://127.0.0.1:' + input.servicePort + '/healthz'),
  fetchLoopback: await get('http://127.0.0.1:' + input.loopbackPort + '/'),
  fetchIpv6: await get('http://[::1]:' + input.loopbackPort + '/'),
  fetchLocalhost: await get('http://localhost:' + input.loopbackPort + '/'),
};`,
      { servicePort, loopbackPort: loopback.port },
    );
    expect(Object.keys(reached).sort()).toEqual([
      'connectIpv6',
      'connectLoopback',
      'connectService',
      'fetchIpv6',
      'fetchLocalhost',
      'fetchLoopback',
      'fetchService',
    ]);
    for (const [attempt, outcome] of Object.entries(reached))
      expect(outcome, attempt).toMatch(/^(failed|timed out)/);
    expect(loopback.connections).toBe(0);
  });
});

describe('a run’s files and processes', () => {
  it('cannot write outside its folder (/tmp, the data folder) nor start a process', async () => {
    const stray = `browserdeck-run-escape-${process.pid}-${Date.now()}.txt`;
    const attempts = await result(
      `
const fs = await import('node:fs/promises');
const { spawn, execSync } = await import('node:child_process');
const attempt = (work) => Promise.resolve().then(work).then(() => 'done', (error) => error.code ?? error.message);
return {
  writeTmp: await attempt(() => fs.writeFile('/tmp/' + input.stray, 'x')),
  writeDataDir: await attempt(() => fs.writeFile(input.dataDir + '/' + input.stray, 'x')),
  readDatabase: await attempt(() => fs.readFile(input.dataDir + '/browserdeck.sqlite')),
  writeOwn: await attempt(() => fs.writeFile(process.cwd() + '/own.txt', 'x')),
  spawn: await attempt(() => new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true']);
    child.on('error', reject);
    child.on('exit', resolve);
  })),
  execSync: await attempt(() => execSync('true')),
};`,
      { stray, dataDir },
    );
    expect(attempts.writeOwn).toBe('done');
    for (const name of ['writeTmp', 'writeDataDir', 'readDatabase', 'spawn', 'execSync'])
      expect(attempts[name], name).toMatch(/^E[A-Z_]+$/);
    expect(existsSync(join('/tmp', stray))).toBe(false);
    expect(existsSync(join(dataDir, stray))).toBe(false);
  });
});

describe('a run’s output and memory', () => {
  it('cuts a 20 MB stdout flood at the log limit, lines at 16 KiB, and the server stays healthy', async () => {
    const agentId = await user.agent(`
const line = 'x'.repeat(100 * 1024) + '\\n';
for (let i = 0; i < 200; i++) process.stdout.write(line);
for (let i = 0; i < 1000; i++) console.log('short line ' + i);
return 'flooded';`);
    const run = (await user.start(agentId)).body;
    const ending = user.terminal(run.id);
    let ended = false;
    void ending.then(() => {
      ended = true;
    });
    const health: number[] = [];
    while (!ended) {
      health.push((await request(server.url, 'GET', '/healthz')).status);
      await Promise.race([ending, new Promise((done) => setTimeout(done, 50))]);
    }
    const done = await ending;
    health.push((await request(server.url, 'GET', '/healthz')).status);
    expect(health.length).toBeGreaterThan(1);
    expect(new Set(health)).toEqual(new Set([200]));
    expect(done).toMatchObject({ status: 'SUCCEEDED', result: 'flooded' });

    const { lines } = await user.logs(done.id, 1000);
    // What a line costs of the budget: its stream's name and its message.
    const bytes = (l: RunLogLineJson) => l.stream.length + Buffer.byteLength(l.message, 'utf8');
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(Math.max(...lines.map((l) => Buffer.byteLength(l.message, 'utf8')))).toBeLessThanOrEqual(
      LINE_MAX_BYTES,
    );
    const flood = lines.filter((l) => l.stream === 'stdout');
    expect(flood.length).toBeGreaterThan(0);
    for (const line of flood) expect(line.message).toMatch(/^x+ …\[line cut at 16 KiB\]$/);
    expect(lines.some((l) => l.message.startsWith('short line'))).toBe(false);
    const limit = lines.findIndex((l) => l.stream === 'system' && /log limit .* reached/.test(l.message));
    expect(lines[limit]?.message).toBe(`log limit of ${MAX_LOG_BYTES} bytes reached; further output dropped`);
    // After it, only the worker's own lines (the session released).
    expect(lines.slice(limit + 1).map((l) => l.stream)).toEqual(lines.slice(limit + 1).map(() => 'system'));
    const before = lines.slice(0, limit).reduce((sum, l) => sum + bytes(l), 0);
    expect(before).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(before).toBeGreaterThan(MAX_LOG_BYTES - LINE_MAX_BYTES - 1024);
    const systemAfter = lines.slice(limit).reduce((sum, l) => sum + bytes(l), 0);
    expect(done.logBytes).toBe(before + systemAfter);
    expect(done.logBytes).toBeLessThanOrEqual(MAX_LOG_BYTES + systemAfter);
  });

  it('kills a script that allocates without end at its memory limit: FAILED memory_limit', async () => {
    const agentId = await user.agent(
      "log('allocating');\nconst kept = [];\nfor (;;) kept.push(new Array(100_000).fill(Math.random()));",
    );
    const run = (await user.start(agentId, { wait: 60, timeoutSec: 60 })).body;
    expect(run).toMatchObject({
      status: 'FAILED',
      result: null,
      error: { code: 'memory_limit', message: expect.stringContaining('64 MiB') },
    });
    expect((await request(server.url, 'GET', '/healthz')).status).toBe(200);
  });
});

import { access, chmod, mkdtemp, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, givenScriptRunner, processesUsing, resultOf } from '@browserdeck/testing/local-chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Set in this process's environment before the runner starts: no script may see it. */
const CANARY = 'BROWSERDECK_RUN_CANARY';

// Both levels run for real wherever the tests run (.ci/run installs bubblewrap; the namespaces
// level needs root, which CI and the developers' machines are), as for the local browsers.
for (const level of ['bubblewrap', 'namespaces'] as const) {
  describe(`ConfinedScriptRunner at the ${level} level: a script is confined`, () => {
    let scratch: string;
    let loopback: { server: Server; port: number; connections: number };

    beforeAll(async () => {
      process.env[CANARY] = 'service secret';
      process.env.DATABASE_URL ??= 'postgres://service:secret@127.0.0.1/deck';
      process.env.SECRET_KEY ??= 'service-secret-key';
      scratch = await mkdtemp(join(tmpdir(), 'browserdeck-run-test-'));
      // World-readable and writable, so only the confinement keeps the script out.
      await chmod(scratch, 0o777);
      await writeFile(join(scratch, 'canary.txt'), 'host secret');
      await chmod(join(scratch, 'canary.txt'), 0o666);
      loopback = await countingServer();
    });
    const harness = givenScriptRunner({ isolation: level });

    afterAll(async () => {
      delete process.env[CANARY];
      loopback?.server.close();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    it('runs unprivileged, in namespaces of its own, seeing its folder and none of the host’s', async () => {
      expect(await harness().runner.isolationLevel()).toBe(level);
      const controller = new AbortController();
      let runDir = '';
      const running = harness().run(
        'log(process.cwd()); await new Promise(() => {});',
        {},
        {
          signal: controller.signal,
          onLine: (line) => {
            runDir ||= line.message;
          },
        },
      );
      await eventually(() => runDir !== '');
      const node = await scriptProcess(runDir);
      const status = await readFile(`/proc/${node}/status`, 'utf8');
      expect(Number(/^Uid:\s+(\d+)/m.exec(status)?.[1])).not.toBe(0);
      for (const ns of ['net', 'mnt', 'pid'])
        expect(await readlink(`/proc/${node}/ns/${ns}`), ns).not.toBe(await readlink(`/proc/self/ns/${ns}`));
      // Its root, as the kernel shows it to us: its own folder is there, the host's files are not.
      await access(join(`/proc/${node}/root`, runDir));
      await expect(access(join(`/proc/${node}/root`, scratch, 'canary.txt'))).rejects.toThrow(/ENOENT/);
      controller.abort();
      expect((await running).outcome.kind).toBe('aborted');
    });

    it("gives the script exactly the run's environment, nothing of the service's", async () => {
      const env = { GREETING: 'hello', API_TOKEN: 'run-secret' };
      const { outcome } = await harness().run('return { all: { ...process.env }, env };', { env });
      expect(resultOf(outcome)).toEqual({ all: env, env });
    });

    it('has no network: the service, another loopback port and [::1] are out of reach', async () => {
      const servicePort = Number(new URL(harness().cdpUrl).port);
      const { outcome } = await harness().run(
        `
        const net = await import('node:net');
        const attempt = (host, port) => new Promise((resolve) => {
          const socket = net.connect({ host, port }, () => { socket.destroy(); resolve('connected'); });
          socket.on('error', (error) => resolve(error.code));
        });
        const get = (url) => fetch(url).then((r) => 'status ' + r.status, (e) => 'failed ' + (e.cause?.code ?? e.message));
        return {
          service: await attempt('127.0.0.1', input.servicePort),
          loopback: await attempt('127.0.0.1', input.loopbackPort),
          ipv6: await attempt('::1', input.loopbackPort),
          fetchService: await get('http://127.0.0.1:' + input.servicePort + '/'),
          fetchLoopback: await get('http://127.0.0.1:' + input.loopbackPort + '/'),
          fetchLocalhost: await get('http://localhost:' + input.loopbackPort + '/'),
        };`,
        { input: { servicePort, loopbackPort: loopback.port } },
      );
      const reached = resultOf(outcome) as Record<string, string>;
      expect(Object.keys(reached)).toHaveLength(6);
      for (const [name, result] of Object.entries(reached)) expect(result, name).toMatch(/^(E[A-Z]+|failed)/);
      expect(loopback.connections).toBe(0);
    });

    it("cannot read or write the host's files, nor start a process", async () => {
      const { outcome } = await harness().run(
        `
        const fs = await import('node:fs/promises');
        const { spawn } = await import('node:child_process');
        const attempt = (work) => work().then(() => 'done', (e) => e.code ?? e.message);
        return {
          readCanary: await attempt(() => fs.readFile(input.dir + '/canary.txt', 'utf8')),
          readShadow: await attempt(() => fs.readFile('/etc/shadow', 'utf8')),
          writeHost: await attempt(() => fs.writeFile(input.dir + '/written.txt', 'x')),
          writeTmp: await attempt(() => fs.writeFile('/tmp/written.txt', 'x')),
          writeOwn: await attempt(() => fs.writeFile(process.cwd() + '/own.txt', 'x')),
          spawn: await attempt(async () => { spawn('/bin/sh', ['-c', 'true']); }),
        };`,
        { input: { dir: scratch } },
      );
      expect(resultOf(outcome)).toEqual({
        readCanary: 'ERR_ACCESS_DENIED',
        readShadow: 'ERR_ACCESS_DENIED',
        writeHost: 'ERR_ACCESS_DENIED',
        writeTmp: 'ERR_ACCESS_DENIED',
        writeOwn: 'done',
        spawn: 'ERR_ACCESS_DENIED',
      });
      await expect(access(join(scratch, 'written.txt'))).rejects.toThrow(/ENOENT/);
    });
  });
}

describe('ConfinedScriptRunner at the off level (single-user development): only the permission model holds', () => {
  const harness = givenScriptRunner({ isolation: 'off' });

  it("still runs scripts, refuses files outside the run's folder and child processes, and gives only the run's environment", async () => {
    const { outcome } = await harness().run(
      `
      const fs = await import('node:fs/promises');
      const { spawn } = await import('node:child_process');
      const attempt = (work) => work().then(() => 'done', (e) => e.code ?? e.message);
      await page.goto('data:text/html,<title>unconfined</title>');
      return {
        title: await page.title(),
        env: Object.keys(process.env),
        readShadow: await attempt(() => fs.readFile('/etc/shadow', 'utf8')),
        writeOwn: await attempt(() => fs.writeFile(process.cwd() + '/own.txt', 'x')),
        spawn: await attempt(async () => { spawn('/bin/sh', ['-c', 'true']); }),
      };`,
      { env: { ONLY: 'this' } },
    );
    expect(resultOf(outcome)).toEqual({
      title: 'unconfined',
      env: ['ONLY'],
      readShadow: 'ERR_ACCESS_DENIED',
      writeOwn: 'done',
      spawn: 'ERR_ACCESS_DENIED',
    });
  });
});

/** The run's Node process (not the confinement's launchers: sh, unshare, setpriv, bwrap). */
async function scriptProcess(runDir: string): Promise<number> {
  const node = await realpath(process.execPath);
  for (const pid of await processesUsing(runDir)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0')[0] === node) return pid;
  }
  throw new Error(`no Node process of the run in ${runDir}`);
}

/** A TCP server on 127.0.0.1 counting the connections it gets. */
async function countingServer(): Promise<{ server: Server; port: number; connections: number }> {
  const state = {
    server: createServer((socket) => {
      state.connections++;
      socket.destroy();
    }),
    port: 0,
    connections: 0,
  };
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.port = (state.server.address() as { port: number }).port;
  return state;
}

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserCgroups } from './BrowserCgroups.ts';
import type { CgroupLayout } from './cgroupLayout.ts';
import type { ResourceLimits } from './ResourceLimits.ts';

const MIB = 1024 * 1024;
const LIMITS: ResourceLimits = { memoryBytes: 256 * MIB, pids: 128, cpuWeight: 50, diskBytes: null };
/** A fake cgroup file system cannot `rmdir` a folder with files in it, as the real one can. */
const removeDir = (dir: string) => rm(dir, { recursive: true });

describe('BrowserCgroups (on a fake cgroup file system)', () => {
  const scratch: string[] = [];

  afterEach(async () => {
    for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function fakeRoot(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'browserdeck-cgroups-test-'));
    scratch.push(dir);
    return dir;
  }

  async function put(path: string, content: string): Promise<void> {
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, content);
  }

  const read = (path: string) => readFile(path, 'utf8');
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );

  describe('cgroup v2', () => {
    async function v2Host(controllers = 'cpuset cpu io memory pids') {
      const root = await fakeRoot();
      const slice = join(root, 'system.slice');
      await put(join(slice, 'cgroup.controllers'), controllers);
      await put(join(slice, 'cgroup.subtree_control'), '');
      await mkdir(join(slice, 'browserdeck.service'));
      const layout: CgroupLayout = {
        version: 2,
        mountPoint: root,
        ownDir: join(slice, 'browserdeck.service'),
      };
      return { root, slice, layout };
    }

    it("puts each browser beside the service's cgroup, controllers enabled, limits written", async () => {
      const { slice, layout } = await v2Host();
      const { cgroups, notInForce } = await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      expect(notInForce).toEqual([]);
      expect(cgroups!.version).toBe(2);
      expect(await read(join(slice, 'cgroup.subtree_control'))).toBe('+memory +pids +cpu');
      const browser = await cgroups!.create();
      const [dir] = browser.dirs;
      expect(dir).toMatch(new RegExp(`^${slice}/browserdeck-${process.pid}-\\d+/browser-1$`));
      expect(await read(join(dir!, '..', 'cgroup.subtree_control'))).toBe('+memory +pids +cpu');
      expect(await read(join(dir!, 'memory.max'))).toBe(String(256 * MIB));
      expect(await read(join(dir!, 'memory.swap.max'))).toBe('0');
      expect(await read(join(dir!, 'memory.oom.group'))).toBe('1');
      expect(await read(join(dir!, 'pids.max'))).toBe('128');
      expect(await read(join(dir!, 'cpu.weight'))).toBe('50');
      // Torn down, it yields the CPU.
      await browser.yieldCpu();
      expect(await read(join(dir!, 'cpu.weight'))).toBe('1');
      // Writes apply in the order asked, also when the first is not waited for.
      void browser.setCpuWeight(300);
      await browser.yieldCpu();
      expect(await read(join(dir!, 'cpu.weight'))).toBe('1');
      expect(browser.procsFiles).toEqual([join(dir!, 'cgroup.procs')]);
      expect(browser.memoryLimitBytes).toBe(256 * MIB);

      expect(await browser.oomKills()).toBe(0);
      await writeFile(join(dir!, 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n');
      expect(await browser.oomKills()).toBe(1);
    });

    it('kills what is left in a browser cgroup before removing it', async () => {
      const { layout } = await v2Host();
      const { cgroups } = await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      const browser = await cgroups!.create();
      const straggler = spawn('sleep', ['60'], { stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        straggler.once('exit', (_, s) => resolve(s)),
      );
      await writeFile(browser.procsFiles[0]!, `${straggler.pid}\n`);
      expect(await browser.members()).toEqual([straggler.pid]);
      await browser.remove();
      expect(await exited).toBe('SIGKILL');
      expect(await exists(browser.dirs[0]!)).toBe(false);
      await cgroups!.close();
      expect(await exists(join(browser.dirs[0]!, '..'))).toBe(false);
    });

    it('reports a controller the parent does not offer as not in force, and runs with the rest', async () => {
      const { layout } = await v2Host('cpu memory');
      const { cgroups, notInForce } = await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      expect(notInForce).toEqual([
        { limit: 'pids', reason: expect.stringMatching(/pids controller is not available/) },
      ]);
      expect(cgroups!.controllers).toEqual(['memory', 'cpu']);
      const [dir] = (await cgroups!.create()).dirs;
      expect(await exists(join(dir!, 'pids.max'))).toBe(false);
    });

    it('uses the root itself when the service runs in the root cgroup', async () => {
      const root = await fakeRoot();
      await put(join(root, 'cgroup.controllers'), 'memory pids cpu');
      const layout: CgroupLayout = { version: 2, mountPoint: root, ownDir: root };
      const { cgroups } = await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      expect((await cgroups!.create()).dirs[0]).toMatch(
        new RegExp(`^${root}/browserdeck-\\d+-\\d+/browser-1$`),
      );
    });

    it('sweeps the groups of services that are gone, leaving live ones', async () => {
      const { slice, layout } = await v2Host();
      await mkdir(join(slice, 'browserdeck-999999999-1', 'browser-3'), { recursive: true });
      await mkdir(join(slice, `browserdeck-${process.pid}-999`));
      await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      expect(await exists(join(slice, 'browserdeck-999999999-1'))).toBe(false);
      expect(await exists(join(slice, `browserdeck-${process.pid}-999`))).toBe(true);
    });
  });

  describe('cgroup v1', () => {
    async function v1Host(withCpu: boolean) {
      const root = await fakeRoot();
      const memory = join(root, 'memory');
      const pids = join(root, 'pids');
      const cpu = join(root, 'cpu,cpuacct');
      await mkdir(join(memory, 'jobs', '42'), { recursive: true });
      await mkdir(pids);
      await mkdir(cpu);
      const layout: CgroupLayout = {
        version: 1,
        v1: {
          memory: { mountPoint: memory, ownDir: join(memory, 'jobs', '42') },
          pids: { mountPoint: pids, ownDir: pids },
          ...(withCpu ? { cpu: { mountPoint: cpu, ownDir: cpu } } : {}),
        },
      };
      return { memory, pids, cpu, layout };
    }

    it("puts each browser in a cgroup of its own under the service's cgroup of every hierarchy", async () => {
      const { memory, pids, cpu, layout } = await v1Host(true);
      const { cgroups, notInForce } = await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      expect(notInForce).toEqual([]);
      const browser = await cgroups!.create();
      const [memoryDir, pidsDir, cpuDir] = browser.dirs;
      expect(memoryDir).toMatch(new RegExp(`^${memory}/jobs/42/browserdeck-${process.pid}-\\d+/browser-1$`));
      expect(pidsDir).toMatch(new RegExp(`^${pids}/browserdeck-${process.pid}-\\d+/browser-1$`));
      expect(cpuDir).toMatch(new RegExp(`^${cpu}/browserdeck-${process.pid}-\\d+/browser-1$`));
      expect(await read(join(memoryDir!, 'memory.limit_in_bytes'))).toBe(String(256 * MIB));
      // Memory plus swap capped at the same number: no swap beyond the limit.
      expect(await read(join(memoryDir!, 'memory.memsw.limit_in_bytes'))).toBe(String(256 * MIB));
      expect(await read(join(pidsDir!, 'pids.max'))).toBe('128');
      // Weight 50 of v2's 100 is 512 of v1's 1024 shares.
      expect(await read(join(cpuDir!, 'cpu.shares'))).toBe('512');
      await browser.yieldCpu();
      expect(await read(join(cpuDir!, 'cpu.shares'))).toBe('2');
      expect(browser.procsFiles).toEqual(browser.dirs.map((d) => join(d, 'cgroup.procs')));

      await writeFile(
        join(memoryDir!, 'memory.oom_control'),
        'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n',
      );
      expect(await browser.oomKills()).toBe(2);
      await browser.remove();
      for (const dir of browser.dirs) expect(await exists(dir)).toBe(false);
    });

    it('reports a hierarchy that is not mounted as not in force', async () => {
      const { layout } = await v1Host(false);
      const { cgroups, notInForce } = await BrowserCgroups.setUp({ layout, limits: LIMITS, removeDir });
      expect(notInForce).toEqual([{ limit: 'cpu', reason: 'no cgroup v1 cpu hierarchy is mounted' }]);
      expect(cgroups!.controllers).toEqual(['memory', 'pids']);
    });

    it('leaves limits that are off out altogether', async () => {
      const { layout } = await v1Host(true);
      const { cgroups } = await BrowserCgroups.setUp({
        layout,
        limits: { memoryBytes: null, pids: 64, cpuWeight: null, diskBytes: null },
        removeDir,
      });
      const browser = await cgroups!.create();
      expect(browser.dirs).toHaveLength(1);
      expect(browser.memoryLimitBytes).toBeNull();
      expect(await browser.oomKills()).toBe(0);
    });
  });

  it('reports every limit as not in force when no cgroup file system is usable', async () => {
    const { cgroups, notInForce } = await BrowserCgroups.setUp({ layout: null, limits: LIMITS, removeDir });
    expect(cgroups).toBeNull();
    expect(notInForce.map((p) => p.limit)).toEqual(['memory', 'pids', 'cpu']);
  });
});

import { readFileSync, rmdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@browserdeck/domain';
import { cpuWeightSetting } from './cpuWeightSetting.ts';

/** How long `remove` keeps killing stragglers and retrying before it gives up (and logs). */
const REMOVE_DEADLINE_MS = 5_000;
const RETRY_MS = 25;

/** Removes an empty cgroup folder (`rmdir`; a test's fake file system passes its own). */
export type RemoveCgroupDir = (dir: string) => Promise<void>;

/**
 * The cgroup(s) of one browser: one folder on cgroup v2, one per v1 hierarchy. The browser enters
 * them before it runs (`procsFiles`, see `enterCgroupCommand`), so its whole process tree is counted;
 * `remove` kills whatever is left in them and removes them once the browser is gone.
 */
export class BrowserCgroup {
  /** The folders, memory's first when it is limited. */
  readonly dirs: readonly string[];
  /** The memory limit in force, in bytes; null when memory is not limited. */
  readonly memoryLimitBytes: number | null;
  private readonly version: 1 | 2;
  /** The folder holding the memory controller's files; null when memory is not limited. */
  private readonly memoryDir: string | null;
  private readonly logger: Logger;
  private readonly removeDir: RemoveCgroupDir;
  private removal: Promise<void> | null = null;
  private cpuWrites: Promise<void> = Promise.resolve();

  constructor(parts: {
    version: 1 | 2;
    dirs: readonly string[];
    memoryDir: string | null;
    memoryLimitBytes: number | null;
    logger: Logger;
    removeDir: RemoveCgroupDir;
  }) {
    this.version = parts.version;
    this.dirs = parts.dirs;
    this.memoryDir = parts.memoryDir;
    this.memoryLimitBytes = parts.memoryLimitBytes;
    this.logger = parts.logger;
    this.removeDir = parts.removeDir;
  }

  /** The files a process writes its pid to, to enter every folder. */
  get procsFiles(): string[] {
    return this.dirs.map((dir) => join(dir, 'cgroup.procs'));
  }

  /**
   * How many processes the kernel's OOM killer has killed in this cgroup for reaching its memory
   * limit (`oom_kill` of v2 `memory.events`, of v1 `memory.oom_control`); 0 when memory is not
   * limited or the count cannot be read.
   */
  async oomKills(): Promise<number> {
    if (!this.memoryDir) return 0;
    const file = this.version === 2 ? 'memory.events' : 'memory.oom_control';
    const text = await readFile(join(this.memoryDir, file), 'utf8').catch(() => '');
    const match = /^oom_kill (\d+)$/m.exec(text);
    return match ? Number(match[1]) : 0;
  }

  /**
   * Gives the browser the least CPU weight (v2 `cpu.weight` 1, v1 `cpu.shares` 2), so a browser
   * being torn down yields the CPU to every other and to the creates under way. Best effort: a
   * hierarchy without the file is skipped.
   */
  async yieldCpu(): Promise<void> {
    await this.writeCpu(this.version === 2 ? ['cpu.weight', '1'] : ['cpu.shares', '2']);
  }

  /**
   * Gives the browser the CPU weight `weight` (a warm process back to its share once it serves).
   * Best effort, as `yieldCpu`.
   */
  async setCpuWeight(weight: number): Promise<void> {
    await this.writeCpu(cpuWeightSetting(this.version, weight));
  }

  /**
   * Writes one CPU setting, after the ones asked for before it: a caller that does not wait (a warm
   * browser's `foreground`, off the create's path) cannot have its write land after a later one
   * (the `yieldCpu` of its teardown).
   */
  private writeCpu([file, value]: [string, string]): Promise<void> {
    const write = () =>
      Promise.all(this.dirs.map((dir) => writeFile(join(dir, file), value).catch(() => {})));
    this.cpuWrites = this.cpuWrites.then(write, write).then(() => {});
    return this.cpuWrites;
  }

  /** Pids of the processes in the browser's cgroup now (its first folder). */
  async members(): Promise<number[]> {
    return pidsIn(await readFile(join(this.dirs[0]!, 'cgroup.procs'), 'utf8').catch(() => ''));
  }

  /**
   * Kills every process in the cgroups and removes them, trying for up to `waitMs` while the killed
   * processes go (for `process.on('exit')`, where nothing can wait for events).
   */
  removeSync(waitMs: number): void {
    const deadline = Date.now() + waitMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (const dir of this.dirs) {
      for (;;) {
        let text = '';
        try {
          text = readFileSync(join(dir, 'cgroup.procs'), 'utf8');
        } catch {
          break;
        }
        for (const pid of pidsIn(text)) killQuietly(pid);
        try {
          rmdirSync(dir);
          break;
        } catch {
          if (Date.now() > deadline) break;
          Atomics.wait(pause, 0, 0, RETRY_MS);
        }
      }
    }
  }

  /** Kills stragglers and removes the folders (best effort: a failure is logged). Idempotent. */
  remove(): Promise<void> {
    this.removal ??= Promise.all(this.dirs.map((dir) => this.removeOne(dir))).then(() => {});
    return this.removal;
  }

  private async removeOne(dir: string): Promise<void> {
    const deadline = Date.now() + REMOVE_DEADLINE_MS;
    for (;;) {
      // cgroup.kill (v2, Linux 5.14+) kills the whole cgroup at once; elsewhere each member is killed.
      if (this.version === 2) await writeFile(join(dir, 'cgroup.kill'), '1').catch(() => {});
      const members = pidsIn(await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => ''));
      for (const pid of members) killQuietly(pid);
      try {
        await this.removeDir(dir);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return;
        if (Date.now() > deadline) {
          this.logger.warn({ err: error, dir }, 'local provider: could not remove a browser cgroup');
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

function pidsIn(text: string): number[] {
  return text
    .split('\n')
    .filter((line) => /^\d+$/.test(line.trim()))
    .map(Number);
}

function killQuietly(pid: number): void {
  // Never this process or init, whatever a cgroup file says.
  if (pid <= 1 || pid === process.pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

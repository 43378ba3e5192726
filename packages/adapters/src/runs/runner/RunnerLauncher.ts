import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Logger, silentLogger } from '@browserdeck/domain';
import { BrowserConfinement } from '../../confinement/isolation/BrowserConfinement.ts';
import type { IsolationLevel, IsolationSetting } from '../../confinement/isolation/IsolationLevel.ts';
import { BrowserLimits } from '../../confinement/limits/BrowserLimits.ts';
import type { BrowserLimitsLease } from '../../confinement/limits/BrowserLimitsLease.ts';
import { enterCgroupCommand } from '../../confinement/limits/enterCgroupCommand.ts';
import { isProcessAlive } from '../../confinement/limits/isProcessAlive.ts';
import { CompileCache } from './CompileCache.ts';
import { RunnerProcess, spawnRunner } from './RunnerProcess.ts';

const MIB = 1024 * 1024;
/** Memory of a run's process beyond its heap: Node, playwright-core's code, buffers. */
const PROCESS_HEADROOM_MB = 160;
/** Files playwright-core looks for as it loads (to detect WSL): absent in a sandbox, never secret. */
const PLAYWRIGHT_PROBES = ['/proc/sys/fs/binfmt_misc/WSLInterop', '/run/WSL'];
/** The confined process's PATH until its run's environment replaces the whole environment. */
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
/** Run folders: `run-<service pid>-<random>` (stale ones are swept by pid). */
const RUN_DIR_PATTERN = /^run-(\d+)-/;

/** How runs' processes are confined and limited (see `ConfinedScriptRunnerOptions`). */
export interface RunnerLauncherOptions {
  readonly runsDir: string;
  readonly isolation: IsolationSetting;
  readonly browserUser?: string | undefined;
  readonly hiddenPaths: readonly string[];
  readonly memoryMb: number;
  readonly pids: number | null;
  readonly cpuWeight: number | null;
  readonly diskMb: number | null;
  readonly logger?: Logger | undefined;
}

/**
 * Starts runs' processes, each confined as local browsers are (`BrowserConfinement`: the browser
 * user, a filesystem view of the system, Node, the runner's code, playwright-core and its own
 * folder) with no network of its own, limited by a cgroup and a sized disk of its own
 * (`BrowserLimits`), under Node's permission model (reads: those folders; writes: its folder; no
 * child processes, workers or addons) with a heap cap.
 */
export class RunnerLauncher {
  readonly confinement: BrowserConfinement;
  readonly limits: BrowserLimits;
  private readonly options: RunnerLauncherOptions;
  private readonly paths: {
    node: string;
    entry: string;
    childDir: string;
    playwrightDir: string;
    playwrightUrl: string;
  };
  private readonly compileCache: CompileCache;

  private constructor(parts: {
    options: RunnerLauncherOptions;
    confinement: BrowserConfinement;
    limits: BrowserLimits;
    paths: RunnerLauncher['paths'];
    compileCache: CompileCache;
  }) {
    this.options = parts.options;
    this.confinement = parts.confinement;
    this.limits = parts.limits;
    this.paths = parts.paths;
    this.compileCache = parts.compileCache;
  }

  /** Sets up the confinement and limits (throwing when no isolation level can be) and the runs folder. */
  static async setUp(options: RunnerLauncherOptions): Promise<RunnerLauncher> {
    const logger = options.logger ?? silentLogger;
    if (options.runsDir.includes(':'))
      throw new Error(`the runs folder ${options.runsDir} must not contain ':'`);
    const confinement = await BrowserConfinement.setUp({
      setting: options.isolation,
      browserUser: options.browserUser,
      hiddenPaths: options.hiddenPaths,
      // Its own warning (ConfinedScriptRunner) says what `off` means for runs.
      logger: options.isolation === 'off' ? silentLogger : logger,
    });
    const limits = await BrowserLimits.setUp({
      limits: {
        memoryBytes: (options.memoryMb + PROCESS_HEADROOM_MB + (options.diskMb ?? 0)) * MIB,
        pids: options.pids,
        cpuWeight: options.cpuWeight,
        diskBytes: options.diskMb === null ? null : options.diskMb * MIB,
      },
      logger,
    });
    await mkdir(options.runsDir, { recursive: true, mode: 0o700 });
    await sweepStaleRunDirs(options.runsDir);
    const here = fileURLToPath(import.meta.url);
    const childDir = join(dirname(here), 'child');
    // Built, the child is .mjs beside this .js; from source, .mts beside this .ts.
    const entry = join(childDir, `runnerMain${extname(here) === '.ts' ? '.mts' : '.mjs'}`);
    const playwrightDir = await realpath(
      dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')),
    );
    return new RunnerLauncher({
      options,
      confinement,
      limits,
      paths: {
        node: await realpath(process.execPath),
        entry,
        childDir,
        playwrightDir,
        playwrightUrl: pathToFileURL(join(playwrightDir, 'index.mjs')).href,
      },
      compileCache: await CompileCache.at(join(options.runsDir, 'compile-cache')),
    });
  }

  get level(): IsolationLevel {
    return this.confinement.level;
  }

  /** Who runs' processes run as; null for the service's own user. */
  get owner(): { uid: number; gid: number } | null {
    return this.confinement.user;
  }

  /**
   * Starts one run's process (it gets ready by itself: `RunnerProcess.ready`). A `background` one
   * (started ahead, for a run to come) gets the least CPU weight until `RunnerProcess.foreground`,
   * so that getting it ready yields the CPU to the runs and browsers at work.
   */
  async launch(how: { background?: boolean } = {}): Promise<RunnerProcess> {
    const { options, paths } = this;
    const background = how.background === true && options.cpuWeight !== null;
    const runDir = await mkdtemp(join(options.runsDir, `run-${process.pid}-`));
    let lease: BrowserLimitsLease | null = null;
    try {
      lease = await this.limits.lease(runDir, this.owner, true);
      if (background) await lease.cgroup?.yieldCpu();
      await this.confinement.claim(runDir);
      const compileCacheDir = join(runDir, 'compile-cache');
      await this.compileCache.seed(compileCacheDir, this.owner);
      const args = [
        '--permission',
        ...[paths.childDir, paths.playwrightDir, runDir, ...PLAYWRIGHT_PROBES].map(
          (p) => `--allow-fs-read=${p}`,
        ),
        `--allow-fs-write=${runDir}`,
        `--max-old-space-size=${options.memoryMb}`,
        '--disable-warning=ExperimentalWarning',
        paths.entry,
      ];
      const wrapped = enterCgroupCommand(
        await this.confinement.wrap({
          executablePath: paths.node,
          args,
          profileDir: runDir,
          tmpfsBytes: this.limits.tmpfsBytes,
          readOnlyDirs: [paths.childDir, paths.playwrightDir],
          // Both go before the script runs: its environment is exactly its run's.
          env: { PATH: SYSTEM_PATH, NODE_COMPILE_CACHE: compileCacheDir },
          network: false,
        }),
        lease.procsFiles,
      );
      const harvest = this.compileCache.wanted;
      return new RunnerProcess({
        child: spawnRunner(wrapped, runDir),
        runDir,
        lease,
        foregroundCpuWeight: background ? options.cpuWeight : null,
        boot: { runDir, playwrightUrl: paths.playwrightUrl },
        // Taken before its job is sent: no script has run in it.
        beforeReady: harvest ? () => this.compileCache.harvest(compileCacheDir) : null,
      });
    } catch (error) {
      await lease?.release();
      await rm(runDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Kills every process still limited and removes the cgroups, synchronously (process exit). */
  releaseAllSync(): void {
    this.limits.releaseAllSync();
  }

  /** Removes the limits' cgroup folders (every runner disposed first). */
  async close(): Promise<void> {
    await this.limits.close();
  }
}

/** Removes the run folders of services that are gone (their disks were swept by `SessionDisks`). */
async function sweepStaleRunDirs(runsDir: string): Promise<void> {
  for (const entry of await readdir(runsDir).catch(() => [])) {
    const pid = RUN_DIR_PATTERN.exec(entry)?.[1];
    if (pid !== undefined && !isProcessAlive(Number(pid)))
      await rm(join(runsDir, entry), { recursive: true, force: true }).catch(() => {});
  }
}

import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ProviderError } from '@browserdeck/domain';
import type { BrowserConfinement } from '../../../confinement/isolation/BrowserConfinement.ts';
import { enterCgroupCommand } from '../../../confinement/limits/enterCgroupCommand.ts';
import { CdpPipe } from '../cdp/CdpPipe.ts';
import { chromiumArgs } from './chromiumArgs.ts';

const STDERR_TAIL_CHARS = 4096;
/** The id of the readiness probe, answered before anyone else speaks on the pipe. */
const READY_PROBE_ID = 0;

/** How to start one browser. */
export interface LaunchChromiumOptions {
  readonly executablePath: string;
  readonly profileDir: string;
  readonly confinement: BrowserConfinement;
  /** The egress proxy the browser must use; null only where tests run without one. */
  readonly proxyUrl: string | null;
  /** The window (and page) size; null or absent for Chromium's default. */
  readonly windowSize?: { readonly width: number; readonly height: number } | null;
  /** The `cgroup.procs` files of the browser's cgroup(s): it enters them before it runs (none: no cgroup). */
  readonly cgroupProcsFiles?: readonly string[];
  /** Size of the sandbox's own `/tmp` and `/dev/shm`; null or absent for the default. */
  readonly tmpfsBytes?: number | null;
  /** A session's unpacked extension to load (`chromiumArgs`); null or absent for none. */
  readonly extensionDir?: string | null;
  /** How long to wait for the DevTools pipe to answer (default 30 s). */
  readonly startTimeoutMs?: number;
}

/** How a browser process ended. */
export interface ChromiumExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when we asked it to stop (release, timeout, shutdown); false for a crash or outside kill. */
  readonly expected: boolean;
}

/**
 * One headless Chromium, confined as `BrowserConfinement` says, speaking DevTools over a pipe. It
 * runs in its own process group (and, confined, its own PID namespace), so stopping it also stops
 * its renderer and utility processes.
 */
export class ChromiumProcess {
  readonly pid: number;
  readonly profileDir: string;
  /** The DevTools pipe. */
  readonly pipe: CdpPipe;
  /** Settles when the main process has exited. */
  readonly exited: Promise<ChromiumExit>;
  private stopping = false;
  private exitInfo: ChromiumExit | null = null;
  private stderrTail: string;

  private constructor(child: ChildProcess, pipe: CdpPipe, profileDir: string, stderrTail: string) {
    this.pid = child.pid!;
    this.pipe = pipe;
    this.profileDir = profileDir;
    this.stderrTail = stderrTail;
    // Keep draining stderr: a full pipe would block the browser.
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) => {
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.exitInfo = { code, signal, expected: this.stopping };
        this.killGroup();
        resolve(this.exitInfo);
      };
      if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
      else child.once('exit', onExit);
    });
  }

  /** Starts a confined browser and waits until its DevTools pipe answers; `provider_unavailable` when it cannot. */
  static async launch(options: LaunchChromiumOptions): Promise<ChromiumProcess> {
    const { confinement } = options;
    const args = chromiumArgs(options.profileDir, {
      sandbox: confinement.chromiumSandbox,
      proxyUrl: options.proxyUrl,
      windowSize: options.windowSize ?? null,
      extensionDir: options.extensionDir ?? null,
    });
    const wrapped = enterCgroupCommand(
      await confinement.wrap({
        executablePath: options.executablePath,
        args,
        profileDir: options.profileDir,
        tmpfsBytes: options.tmpfsBytes ?? null,
      }),
      options.cgroupProcsFiles ?? [],
    );
    const child = spawn(wrapped.command, wrapped.args, {
      detached: true,
      env: wrapped.env,
      // fd 3: commands to the browser, fd 4: its answers.
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    // Neither the browser nor its pipes keep this process alive.
    child.unref();
    const pipe = new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
    for (const stream of child.stdio.slice(2, 5)) (stream as unknown as { unref?: () => void })?.unref?.();
    return new Promise((resolve, reject) => {
      let stderr = '';
      let settled = false;
      const fail = (reason: string, cause?: unknown): void => {
        if (settled) return;
        settled = true;
        cleanup();
        killProcessGroup(child.pid);
        const tail = stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
        const where = confinement.level === 'off' ? '' : ` (isolation: ${confinement.level})`;
        reject(
          new ProviderError(
            'provider_unavailable',
            `Chromium could not start${where}: ${reason}${tail ? `: ${tail}` : ''}`,
            {
              cause,
            },
          ),
        );
      };
      const onData = (chunk: Buffer): void => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      };
      const onAnswer = (message: string): void => {
        if (settled || !message.startsWith(`{"id":${READY_PROBE_ID},`)) return;
        settled = true;
        cleanup();
        resolve(new ChromiumProcess(child, pipe, options.profileDir, stderr));
      };
      const stopListening = pipe.onMessage(onAnswer);
      const onExit = (code: number | null, signal: string | null): void =>
        fail(`it exited (code ${code}, signal ${signal}) before DevTools answered`);
      const onError = (error: Error): void => fail(error.message, error);
      const timer = setTimeout(
        () => fail('DevTools did not answer in time'),
        options.startTimeoutMs ?? 30_000,
      );
      const cleanup = (): void => {
        stopListening();
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        child.off('exit', onExit);
        child.off('error', onError);
      };
      child.stderr!.on('data', onData);
      child.once('exit', onExit);
      child.once('error', onError);
      pipe.send(JSON.stringify({ id: READY_PROBE_ID, method: 'Browser.getVersion' }));
    });
  }

  /** Null while running; how it ended afterwards. */
  get exit(): ChromiumExit | null {
    return this.exitInfo;
  }

  /** The last few KiB the browser wrote to stderr, for diagnostics. */
  get recentStderr(): string {
    return this.stderrTail;
  }

  /** Kills the browser and its children at once (SIGKILL to the group) and waits for the exit. */
  async kill(): Promise<ChromiumExit> {
    this.stopping = true;
    if (!this.exitInfo) this.killGroup();
    return this.exited;
  }

  /**
   * Asks the browser to shut down cleanly (`Browser.close` over the pipe: it flushes cookies and
   * storage to its profile), and kills the group if it has not exited after `graceMs`.
   */
  async stopGracefully(graceMs: number): Promise<ChromiumExit> {
    this.stopping = true;
    if (this.exitInfo) return this.exitInfo;
    this.pipe.send(JSON.stringify({ id: -1, method: 'Browser.close' }));
    const timer = setTimeout(() => this.killGroup(), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Kills the browser and its children at once as the kernel would at a limit: unlike `kill`, the
   * exit is not one we asked for (`expected` stays false), so its session ends `ERROR`.
   */
  killForLimit(): void {
    if (!this.exitInfo) this.killGroup();
  }

  /** Kills the whole group synchronously (for `process.on('exit')`). */
  killNow(): void {
    this.stopping = true;
    this.killGroup();
  }

  private killGroup(): void {
    killProcessGroup(this.pid);
  }
}

function killProcessGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

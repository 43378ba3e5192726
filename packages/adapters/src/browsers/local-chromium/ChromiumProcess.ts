import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { ProviderError } from '@browserdeck/domain';
import { chromiumArgs } from './chromiumArgs.ts';

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/127\.0\.0\.1:(\d+)(\/devtools\/browser\/[^\s]+))/;
const STDERR_TAIL_CHARS = 4096;

/** How to start one browser. */
export interface LaunchChromiumOptions {
  readonly executablePath: string;
  readonly profileDir: string;
  /** How long to wait for the DevTools endpoint (default 30 s). */
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
 * One headless Chromium process with its DevTools endpoint on 127.0.0.1. It runs in its own process
 * group, so stopping it also stops its renderer and utility processes.
 */
export class ChromiumProcess {
  readonly pid: number;
  readonly port: number;
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  readonly wsUrl: string;
  /** `/devtools/browser/<id>`. */
  readonly browserPath: string;
  readonly profileDir: string;
  /** Settles when the main process has exited. */
  readonly exited: Promise<ChromiumExit>;
  private stopping = false;
  private exitInfo: ChromiumExit | null = null;
  private stderrTail: string;

  private constructor(child: ChildProcess, match: RegExpExecArray, profileDir: string, stderrTail: string) {
    this.pid = child.pid!;
    this.wsUrl = match[1]!;
    this.port = Number(match[2]);
    this.browserPath = match[3]!;
    this.profileDir = profileDir;
    this.stderrTail = stderrTail;
    // Keep draining stderr: a full pipe would block the browser.
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, expected: this.stopping };
        this.killGroup();
        resolve(this.exitInfo);
      });
    });
  }

  /** Starts a browser and waits for its DevTools endpoint; `provider_unavailable` when it cannot start. */
  static launch(options: LaunchChromiumOptions): Promise<ChromiumProcess> {
    const child = spawn(options.executablePath, chromiumArgs(options.profileDir), {
      detached: true,
      // fd 3 and 4: the DevTools pipe, held open and unused (see chromiumArgs).
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    // Neither the browser nor its pipes keep this process alive.
    child.unref();
    for (const stream of child.stdio.slice(2)) (stream as Socket | null)?.unref();
    return new Promise((resolve, reject) => {
      let stderr = '';
      const fail = (reason: string, cause?: unknown): void => {
        cleanup();
        if (child.exitCode === null && child.signalCode === null) killProcessGroup(child.pid);
        const tail = stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
        reject(
          new ProviderError(
            'provider_unavailable',
            `Chromium could not start: ${reason}${tail ? `: ${tail}` : ''}`,
            {
              cause,
            },
          ),
        );
      };
      const onData = (chunk: Buffer): void => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
        const match = DEVTOOLS_LINE.exec(stderr);
        if (!match) return;
        cleanup();
        resolve(new ChromiumProcess(child, match, options.profileDir, stderr));
      };
      const onExit = (code: number | null, signal: string | null): void =>
        fail(`it exited (code ${code}, signal ${signal}) before opening DevTools`);
      const onError = (error: Error): void => fail(error.message, error);
      const timer = setTimeout(() => fail('no DevTools endpoint in time'), options.startTimeoutMs ?? 30_000);
      const cleanup = (): void => {
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        child.off('exit', onExit);
        child.off('error', onError);
      };
      child.stderr!.on('data', onData);
      child.once('exit', onExit);
      child.once('error', onError);
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
   * Asks the browser to shut down cleanly (SIGTERM: it flushes cookies and storage to its profile),
   * and kills the group if it has not exited after `graceMs`.
   */
  async stopGracefully(graceMs: number): Promise<ChromiumExit> {
    this.stopping = true;
    if (this.exitInfo) return this.exitInfo;
    try {
      process.kill(this.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    const timer = setTimeout(() => this.killGroup(), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
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

import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { capRunLogLine, RUN_LOG_LINE_MAX_BYTES } from '@browserdeck/domain';
import type { BrowserLimitsLease } from '../../confinement/limits/BrowserLimitsLease.ts';
import type { RunnerBoot, RunnerJob, RunnerMessage } from './child/runnerProtocol.mts';
import { LineSplitter } from './LineSplitter.ts';
import { RunnerProtocolViolation, readRunnerMessage } from './readRunnerMessage.ts';

/** Largest message line of the runner's own (a 1 MiB result, JSON-escaped, fits). */
const MESSAGE_MAX_BYTES = 8 * 1024 * 1024;
/** What V8 prints when the heap reaches `--max-old-space-size`. */
const HEAP_EXHAUSTED = /JavaScript heap out of memory|Reached heap limit/;
/** What is kept of its output before it has a run, to say why it did not get ready. */
const EARLY_LINES = 5;
const EARLY_LINE_CHARS = 500;
const REMOVE_OPTIONS = { recursive: true, force: true, maxRetries: 10, retryDelay: 50 } as const;

/** A line the process printed or reported, for the run's log. */
export type RunnerOutput = (stream: 'stdout' | 'stderr' | 'console', message: string) => void;

/** How the process ended. */
export interface RunnerExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly report: Extract<RunnerMessage, { type: 'result' | 'error' }> | null;
  readonly heapExhausted: boolean;
  /** Processes of it the kernel killed at its cgroup's memory limit. */
  readonly oomKills: number;
  readonly connectMs: number | null;
  /** What it sent that the runner protocol does not allow (it was killed for it); null when nothing. */
  readonly violation: string | null;
}

/**
 * One run's confined process, from its spawn (it loads playwright-core and reports `ready`) to its
 * end: the lines it prints, the messages it sends, its one job, the kill of its whole process group
 * and cgroup, and the removal of its folder. Each is used for one run only.
 */
export class RunnerProcess {
  readonly runDir: string;
  readonly socketPath: string;
  /** Resolves with the time from spawn to `ready`; rejects when the process ends before it. */
  readonly ready: Promise<number>;
  private readonly child: ChildProcess;
  private readonly lease: BrowserLimitsLease | null;
  private readonly foregroundCpuWeight: number | null;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly drained: Promise<void>;
  private output: RunnerOutput | null = null;
  private report: RunnerExit['report'] = null;
  private heapExhausted = false;
  private connectMs: number | null = null;
  private violation: string | null = null;
  /** Whether it has its job: before it only the runner speaks; after it the script may too. */
  private started = false;
  /** The last lines it printed before it had a run. */
  private readonly early: string[] = [];
  private onReady: (() => void) | null = null;
  private disposal: Promise<void> | null = null;

  constructor(parts: {
    child: ChildProcess;
    runDir: string;
    lease: BrowserLimitsLease | null;
    /** The CPU weight `foreground` gives it (started in the background at the least); null: none. */
    foregroundCpuWeight?: number | null;
    boot: RunnerBoot;
    /** Runs once the process is ready, before `ready` resolves (and so before it is given a job). */
    beforeReady?: (() => Promise<void>) | null;
  }) {
    const { child } = parts;
    this.child = child;
    this.runDir = parts.runDir;
    this.socketPath = join(parts.runDir, 'cdp.sock');
    this.lease = parts.lease;
    this.foregroundCpuWeight = parts.foregroundCpuWeight ?? null;
    const spawnedAt = performance.now();
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    this.ready = new Promise<number>((resolve, reject) => {
      this.onReady = () => {
        // Once: a later `ready` can only be a script's.
        this.onReady = null;
        const spawnMs = performance.now() - spawnedAt;
        void (parts.beforeReady?.() ?? Promise.resolve()).then(() => resolve(spawnMs));
      };
      void this.exited.then(({ code, signal }) => {
        const said = this.early.join(' | ');
        reject(
          new Error(
            `the runner process ended (code ${code}, signal ${signal}) before it was ready${said ? `: ${said}` : ''}`,
          ),
        );
      });
    });
    this.ready.catch(() => {});
    const streams = [
      this.read(child.stdio[1] as Readable, RUN_LOG_LINE_MAX_BYTES, (line) => this.print('stdout', line)),
      this.read(child.stdio[2] as Readable, RUN_LOG_LINE_MAX_BYTES, (line) => this.print('stderr', line)),
      this.read(child.stdio[3] as Readable, MESSAGE_MAX_BYTES, (line, cut) =>
        cut ? this.refuse(`a message over ${MESSAGE_MAX_BYTES} bytes`) : this.receive(line),
      ),
    ];
    this.drained = Promise.all(streams).then(() => {});
    const input = child.stdio[4] as Writable;
    input.on('error', () => {});
    input.write(`${JSON.stringify(parts.boot)}\n`);
  }

  /** Gives a process started in the background its full CPU weight: it serves a run now. */
  async foreground(): Promise<void> {
    if (this.foregroundCpuWeight !== null) await this.lease?.cgroup?.setCpuWeight(this.foregroundCpuWeight);
  }

  /** Where the lines of its run go from now on. */
  attach(output: RunnerOutput): void {
    this.output = output;
  }

  /** Hands it its run (once ready; sent at once, it waits in the pipe). */
  start(job: RunnerJob): void {
    this.started = true;
    const input = this.child.stdio[4] as Writable;
    input.end(`${JSON.stringify(job)}\n`);
  }

  /** Kills the whole process: its group now, its cgroup as `end` removes it. */
  kill(): void {
    killGroup(this.child.pid);
  }

  /**
   * Waits until the process has exited and its output is read, and says how it went. Its
   * processes and folder stay until `dispose`.
   */
  async end(): Promise<RunnerExit> {
    const { code, signal } = await this.exited;
    // Stragglers (none in a PID namespace once its first process is gone) go with the group and
    // the cgroup, so nothing is left holding its pipes open.
    this.kill();
    const oomKills = (await this.lease?.cgroup?.oomKills()) ?? 0;
    await this.lease?.endProcesses();
    await this.drained;
    // Ended at its report (`reported`): the code the runner exits with after one (0 for a result).
    const report = this.report;
    const endedAtReport = report !== null && this.violation === null && signal === 'SIGKILL';
    return {
      exitCode: endedAtReport ? (report.type === 'result' ? 0 : 1) : code,
      signal: endedAtReport ? null : signal,
      report: this.report,
      heapExhausted: this.heapExhausted,
      oomKills,
      connectMs: this.connectMs,
      violation: this.violation,
    };
  }

  /** Kills what is left, removes its cgroup, detaches its disk and removes its folder. Idempotent. */
  dispose(): Promise<void> {
    this.disposal ??= (async () => {
      this.kill();
      await this.exited;
      for (const stream of this.child.stdio) stream?.destroy();
      await this.lease?.release();
      await rm(this.runDir, REMOVE_OPTIONS);
    })();
    return this.disposal;
  }

  private read(
    stream: Readable,
    maxBytes: number,
    onLine: (line: string, cut: boolean) => void,
  ): Promise<void> {
    const splitter = new LineSplitter(maxBytes, onLine);
    return new Promise((resolve) => {
      stream.on('data', (chunk: Buffer) => splitter.push(chunk));
      stream.once('close', () => {
        splitter.end();
        resolve();
      });
      stream.on('error', () => {});
    });
  }

  private print(stream: 'stdout' | 'stderr', line: string): void {
    if (stream === 'stderr' && HEAP_EXHAUSTED.test(line)) this.heapExhausted = true;
    if (this.output) {
      this.output(stream, capRunLogLine(line));
      return;
    }
    this.early.push(line.slice(0, EARLY_LINE_CHARS));
    if (this.early.length > EARLY_LINES) this.early.shift();
  }

  /**
   * One message on fd 3, checked (`readRunnerMessage`) and in its place: `ready` once before the
   * job; then `connected` once, `log`s, and one `result` or `error` (an `error` also before the job,
   * when the runner itself fails), after which nothing counts. Anything else ends the process as a
   * violation.
   */
  private receive(line: string): void {
    if (this.violation !== null) return;
    let message: RunnerMessage;
    try {
      message = readRunnerMessage(line);
    } catch (error) {
      if (!(error instanceof RunnerProtocolViolation)) throw error;
      this.refuse(error.message);
      return;
    }
    const { type } = message;
    // The first report decides the run and ends the process: what is still on its way (a page's
    // console, a timer's log, a late rejection) is dropped, not held against it.
    if (this.report !== null) return;
    if (type === 'error') this.reported(message);
    else if (!this.started) {
      if (type === 'ready' && this.onReady) this.onReady();
      else this.refuse(`a ${type} message before its job`);
    } else if (type === 'log') this.output?.(message.stream, capRunLogLine(message.message));
    else if (type === 'connected' && this.connectMs === null) this.connectMs = message.connectMs;
    else if (type === 'result') this.reported(message);
    else this.refuse(`a second ${type} message`);
  }

  /**
   * Keeps the run's one report and ends the process at once: the runner writes out what was printed
   * before it reports (and its messages share fd 3 with the report), so what the pipes hold is read
   * to their end and nothing is lost, and the run is answered without waiting for the process to
   * wind down.
   */
  private reported(report: NonNullable<RunnerExit['report']>): void {
    this.report = report;
    this.kill();
  }

  /** Ends the process for a message the protocol does not allow; the first reason is kept. */
  private refuse(reason: string): void {
    if (this.violation !== null) return;
    this.violation = reason;
    this.kill();
  }
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Spawns `command` in a process group of its own, in the run's folder, with the runner's pipes
 * (fd 3 out, fd 4 in).
 */
export function spawnRunner(
  command: { command: string; args: string[]; env: Record<string, string> },
  runDir: string,
): ChildProcess {
  return spawn(command.command, command.args, {
    cwd: runDir,
    detached: true,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
  });
}

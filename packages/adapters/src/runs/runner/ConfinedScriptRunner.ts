import { dirname } from 'node:path';
import {
  type Logger,
  RUN_MEMORY_MB_DEFAULT,
  RUN_RESULT_MAX_BYTES,
  type ScriptJob,
  type ScriptOutcome,
  type ScriptOutput,
  type ScriptRunner,
  type StopSignal,
  silentLogger,
} from '@browserdeck/domain';
import type { IsolationLevel } from '../../confinement/isolation/IsolationLevel.ts';
import { CdpBridge } from './CdpBridge.ts';
import type { ConfinedScriptRunnerOptions } from './ConfinedScriptRunnerOptions.ts';
import { RunnerLauncher } from './RunnerLauncher.ts';
import type { RunnerExit, RunnerProcess } from './RunnerProcess.ts';
import { MESSAGE_MAX_CHARS } from './readRunnerMessage.ts';
import { runnerTimingsLine } from './runnerTimingsLine.ts';
import { runOutcome } from './runOutcome.ts';
import { WarmRunners } from './WarmRunners.ts';

/**
 * The script runner (http-api.md §11): each run in an OS process of its own on the service's Node,
 * confined like the local browsers with no network of its own (`RunnerLauncher`); its only way out
 * is its session's CDP endpoint, relayed through a Unix socket in its folder (`CdpBridge`). Output
 * lines are capped as they are read; the deadline and an abort kill the whole process. Its last
 * line is a `system` one with the run's timings (`runnerTimingsLine`).
 */
export class ConfinedScriptRunner implements ScriptRunner {
  private readonly options: ConfinedScriptRunnerOptions;
  private readonly logger: Logger;
  private launcher: Promise<RunnerLauncher> | null = null;
  /** The launcher once set up (for the synchronous clean-up at process exit). */
  private launched: RunnerLauncher | null = null;
  private warm: WarmRunners | null = null;
  private readonly active = new Set<RunnerProcess>();
  /** Runs' clean-ups under way (after `run` resolved). */
  private readonly cleanups = new Set<Promise<void>>();
  private closed = false;
  private readonly onExit = () => this.killAllSync();

  constructor(options: ConfinedScriptRunnerOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    if (options.isolation === 'off')
      this.logger.warn(
        {},
        "LOCAL_ISOLATION=off: run scripts are NOT confined (no separate user, filesystem view or network namespace; they can reach the network and this host); only Node's permission model holds them. Use this only for single-user development",
      );
  }

  /** Sets up confinement and limits (throwing when no isolation level can be) and starts the warm processes. */
  async start(): Promise<void> {
    const launcher = await this.setUp();
    this.logger.info?.(
      {
        isolation: launcher.level,
        user: launcher.confinement.user?.name ?? null,
        limits: launcher.limits.describe(),
      },
      `script runner: runs are confined at isolation level ${launcher.level}`,
    );
    if (launcher.limits.notInForce.length > 0)
      this.logger.warn(
        { notInForce: launcher.limits.notInForce },
        'script runner: runs go WITHOUT some resource limits on this host',
      );
  }

  /** The isolation level runs get (setting it up on first use). */
  async isolationLevel(): Promise<IsolationLevel> {
    return (await this.setUp()).level;
  }

  async run(
    job: ScriptJob,
    onOutput: (line: ScriptOutput) => void,
    signal: StopSignal,
  ): Promise<ScriptOutcome> {
    const started = performance.now();
    if (signal.aborted) return { kind: 'aborted', exitCode: null };
    const launcher = await this.setUp();
    const taken = this.warm?.take() ?? null;
    const runner = taken ?? (await launcher.launch());
    this.active.add(runner);
    const killed = { timedOut: false, aborted: false };
    const onAbort = () => {
      killed.aborted = true;
      runner.kill();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    const deadline = setTimeout(
      () => {
        killed.timedOut = true;
        runner.kill();
      },
      Math.max(0, job.timeoutMs - (performance.now() - started)),
    );
    const timings = { spawnMs: 0, waitMs: 0 };
    let bridge: CdpBridge | null = null;
    let outcome: ScriptOutcome;
    let end: RunnerExit;
    try {
      runner.attach((stream, message) => onOutput({ stream, message, timestamp: new Date() }));
      const [ready, served] = await Promise.allSettled([
        runner.foreground().then(() => runner.ready),
        CdpBridge.listen(runner.socketPath, job.cdpUrl, launcher.owner, this.options.ownUpgrade ?? null),
      ]);
      if (served.status === 'rejected') throw served.reason;
      bridge = served.value;
      timings.waitMs = performance.now() - started;
      if (ready.status === 'fulfilled') {
        timings.spawnMs = ready.value;
        runner.start({
          script: job.script,
          input: job.input,
          env: job.env,
          socketPath: runner.socketPath,
          resultMaxBytes: RUN_RESULT_MAX_BYTES,
          messageMaxChars: MESSAGE_MAX_CHARS.log,
          errorMaxChars: MESSAGE_MAX_CHARS.error,
        });
      }
      end = await runner.end();
      outcome = runOutcome({ ...end, ...killed, memoryMb: this.options.memoryMb ?? RUN_MEMORY_MB_DEFAULT });
      if (ready.status === 'rejected' && outcome.kind === 'failed' && outcome.code === 'runner_failed')
        onOutput({ stream: 'system', message: (ready.reason as Error).message, timestamp: new Date() });
      if (end.violation !== null)
        onOutput({
          stream: 'system',
          message: `the run was stopped: its process sent ${end.violation}`,
          timestamp: new Date(),
        });
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      runner.kill();
      // Its processes are gone by now (`end` waited for them and its cgroup); removing its cgroup,
      // disk and folder is not the run's time to spend: `close` waits for what is still going.
      const leftovers = Promise.all([bridge?.close(), runner.dispose()])
        .then(
          () => {},
          (error: unknown) =>
            this.logger.warn({ runId: job.runId, err: error }, 'could not clean up after a run'),
        )
        .finally(() => {
          this.active.delete(runner);
          this.cleanups.delete(leftovers);
        });
      this.cleanups.add(leftovers);
    }
    const spent = {
      runId: job.runId,
      warm: taken !== null,
      ...timings,
      connectMs: end.connectMs,
      scriptMs: end.report?.scriptMs ?? null,
      totalMs: performance.now() - started,
    };
    this.options.onTimings?.(spent);
    // The run's own logs then say where its time went (the metrics only hold aggregates).
    onOutput({ stream: 'system', message: runnerTimingsLine(spent), timestamp: new Date() });
    return outcome;
  }

  /** Resolves once the clean-up of every run that has ended so far (its cgroup, disk and folder) is over. */
  async settled(): Promise<void> {
    while (this.cleanups.size > 0) await Promise.all([...this.cleanups]);
  }

  /** Kills every run still going, disposes of the warm processes and removes the limits' folders. */
  async close(): Promise<void> {
    this.closed = true;
    // A set-up under way finishes first: what it starts is then closed with the rest.
    const launcher = await this.launcher?.catch(() => null);
    process.off('exit', this.onExit);
    await this.warm?.close();
    for (const runner of this.active) runner.kill();
    await Promise.all([...this.active].map((runner) => runner.dispose()));
    await launcher?.close();
  }

  private setUp(): Promise<RunnerLauncher> {
    this.launcher ??= RunnerLauncher.setUp({
      runsDir: this.options.runsDir,
      isolation: this.options.isolation ?? 'on',
      browserUser: this.options.browserUser,
      hiddenPaths: this.options.hiddenPaths ?? serviceFolders(),
      memoryMb: this.options.memoryMb ?? RUN_MEMORY_MB_DEFAULT,
      pids: this.options.pids === undefined ? 128 : this.options.pids,
      cpuWeight: this.options.cpuWeight === undefined ? 100 : this.options.cpuWeight,
      diskMb: this.options.diskMb === undefined ? 64 : this.options.diskMb,
      logger: this.logger,
    }).then(
      (launcher) => {
        this.launched = launcher;
        process.on('exit', this.onExit);
        this.warm = new WarmRunners(
          this.options.warmRunners ?? 1,
          () => launcher.launch({ background: true }),
          this.logger,
        );
        if (!this.closed) this.warm.fill();
        return launcher;
      },
      (error: unknown) => {
        this.launcher = null;
        throw error;
      },
    );
    return this.launcher;
  }

  private killAllSync(): void {
    for (const runner of this.active) runner.kill();
    this.warm?.killAll();
    this.launched?.releaseAllSync();
  }
}

/** The service's own folders: where it runs from and where its main module lives. */
function serviceFolders(): string[] {
  const main = process.argv[1];
  return main ? [process.cwd(), dirname(main)] : [process.cwd()];
}

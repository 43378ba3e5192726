import { asSystem } from '../access/Caller.ts';
import type { BrowserSession } from '../sessions/BrowserSession.ts';
import { ProviderError } from '../sessions/ProviderError.ts';
import type { ReleaseSession } from '../sessions/ReleaseSession.ts';
import type { Clock } from '../shared/Clock.ts';
import { DomainError } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { StopSignal } from '../shared/StopSignal.ts';
import type { Timers } from '../shared/Timers.ts';
import { endRunByCas } from './endRunByCas.ts';
import { openRunSession, type RunSessionDeps, RunSessionUnusable } from './openRunSession.ts';
import type { Run, RunEnding } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunLogStore } from './RunLogStore.ts';
import { RunLogWriter } from './RunLogWriter.ts';
import type { RunQueue } from './RunQueue.ts';
import type { RunRepository } from './RunRepository.ts';
import { readLogPage } from './readLogPage.ts';
import { runEndingOf } from './runEndingOf.ts';
import { RUN_HEARTBEAT_INTERVAL_MS, RUN_LOGS_MAX_LIMIT, RUN_MAX_LOG_BYTES_DEFAULT } from './runRules.ts';
import type { ScriptRunner } from './ScriptRunner.ts';
import { StopSource } from './StopSource.ts';

/** How long a run waits QUEUED after a provider 429 that named no `Retry-After`. */
export const RUN_REQUEUE_BACKOFF_MS = 5_000;

export interface ExecuteRunDeps extends RunSessionDeps {
  runs: RunRepository;
  runLogs: RunLogStore;
  runQueue: RunQueue;
  runChanges: RunChanges;
  scriptRunner: ScriptRunner;
  timers: Timers;
  clock: Clock;
  releaseSession: ReleaseSession;
  logger?: Logger | undefined;
  /** A run's log budget in UTF-8 bytes (`RUN_MAX_LOG_BYTES`); default `RUN_MAX_LOG_BYTES_DEFAULT`. */
  maxLogBytes?: number | undefined;
}

/** What the execution came to: how the run ends, or that it waits for the provider again. */
type Step = RunEnding | { readonly requeueAfterMs: number };

/**
 * A worker's job for one run: claims it (QUEUED → RUNNING, compare-and-set, so one worker only),
 * opens its session, runs its script with a heartbeat every `RUN_HEARTBEAT_INTERVAL_MS` (a
 * heartbeat refused — canceled, ended as lost, deleted — aborts the script), stores its output as
 * log lines, ends the run compare-and-set (a cancel stored meanwhile is kept), then releases a
 * session the run created whatever the outcome: the run is answered first, and `execute` resolves
 * (the worker's slot is free) once the session is released. A provider at capacity (429) puts the run
 * back QUEUED with a back-off instead of failing it. `signal` aborting (a shutdown, or an interrupt
 * of this instance's queue) kills the script; a run nothing else ended ends CANCELED.
 */
export class ExecuteRun {
  private readonly deps: ExecuteRunDeps;

  constructor(deps: ExecuteRunDeps) {
    this.deps = deps;
  }

  async execute(input: { runId: string; workerId: string; signal: StopSignal }): Promise<void> {
    const { runs, runChanges, clock } = this.deps;
    if (input.signal.aborted) return;
    const run = await runs.findById(input.runId);
    if (!run?.start(input.workerId, clock.now())) return;
    if (!(await runs.update(run, 'QUEUED'))) return;
    runChanges.notify(run.id);
    const log = new RunLogWriter(
      { ...this.deps, maxBytes: this.deps.maxLogBytes ?? RUN_MAX_LOG_BYTES_DEFAULT },
      run.id,
      await this.storedLog(run),
    );
    const stop = new StopSource(input.signal);
    const stopBeating = this.deps.timers.every(RUN_HEARTBEAT_INTERVAL_MS, this.heartbeat(run, log, stop));
    const owned: { session: BrowserSession | null } = { session: null };
    let step: Step;
    try {
      step = await this.perform(run, log, stop, owned);
    } catch (error) {
      this.logger.error({ runId: run.id, error: String(error) }, 'a run failed in its worker');
      step = {
        status: 'FAILED',
        error: { code: 'runner_failed', message: 'The run failed in its worker.' },
        exitCode: null,
      };
    } finally {
      stopBeating();
      stop.dispose();
    }
    const session = owned.session;
    if ('requeueAfterMs' in step) {
      if (session) await this.release(run, session);
      await log.flush();
      return this.requeue(run, log, step.requeueAfterMs);
    }
    // The run is answered as soon as its outcome is stored; its session is released after, still
    // within this worker's slot (the account's next run waits for it), and its last line says so.
    if (session) log.system(`session ${session.id} is released as the run ends`);
    await log.flush();
    await this.end(run, input.workerId, step, log.bytes);
    if (session) await this.release(run, session);
  }

  private async perform(
    run: Run,
    log: RunLogWriter,
    stop: StopSource,
    owned: { session: BrowserSession | null },
  ): Promise<Step> {
    let cdpUrl: string;
    try {
      const session = await openRunSession(this.deps, run);
      owned.session = session.owned;
      cdpUrl = session.cdpUrl;
      if (session.owned) {
        run.attachSession(session.sessionId);
        // Clients see the session while the run is RUNNING; a lost race means it ended meanwhile.
        if (!(await this.deps.runs.update(run, 'RUNNING'))) stop.abort();
      }
      log.system(`session ${session.sessionId} ready`);
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'provider_rate_limited')
        return { requeueAfterMs: error.retryAfterSec ? error.retryAfterSec * 1000 : RUN_REQUEUE_BACKOFF_MS };
      if (!(error instanceof RunSessionUnusable || error instanceof DomainError)) throw error;
      return {
        status: 'FAILED',
        error: { code: 'session_failed', message: `The run's session could not be opened: ${error.message}` },
        exitCode: null,
      };
    }
    if (stop.aborted) return runEndingOf({ kind: 'aborted', exitCode: null }, run.timeoutSec);
    const job = {
      runId: run.id,
      script: run.script,
      input: run.input,
      env: run.env,
      timeoutMs: run.timeoutSec * 1000,
      cdpUrl,
    };
    try {
      const outcome = await this.deps.scriptRunner.run(
        job,
        (line) => log.output(line.stream, line.message, line.timestamp),
        stop,
      );
      return runEndingOf(outcome, run.timeoutSec);
    } catch (error) {
      this.logger.error({ runId: run.id, error: String(error) }, 'could not start the process of a run');
      return {
        status: 'FAILED',
        error: { code: 'runner_failed', message: "The script's process could not be started." },
        exitCode: null,
      };
    }
  }

  /** Says the run is still executing; a refusal (it was canceled, ended as lost, deleted) stops it. */
  private heartbeat(run: Run, log: RunLogWriter, stop: StopSource): () => void {
    let busy = false;
    return () => {
      if (busy || stop.aborted) return;
      busy = true;
      run.beat(this.deps.clock.now(), log.bytes);
      this.deps.runs
        .heartbeat(run)
        .then(
          (executing) => {
            if (!executing) stop.abort();
          },
          // A database blip is not a reason to kill the script; the next beat asks again.
          (error: unknown) =>
            this.logger.warn(
              { runId: run.id, error: String(error) },
              'could not record the heartbeat of a run',
            ),
        )
        .finally(() => {
          busy = false;
        });
    };
  }

  /** Releases the run's own session; a failure is logged (the session still ends at its timeout). */
  private async release(run: Run, session: BrowserSession): Promise<void> {
    try {
      await this.deps.releaseSession.execute({
        caller: asSystem(run.projectId),
        projectId: run.projectId,
        sessionId: session.id,
      });
    } catch (error) {
      this.logger.warn(
        { runId: run.id, sessionId: session.id, error: String(error) },
        'could not release the session of a run; it ends at its timeout',
      );
    }
  }

  /** Back to QUEUED (unless it ended meanwhile), queued again no earlier than `delayMs` from now. */
  private async requeue(run: Run, log: RunLogWriter, delayMs: number): Promise<void> {
    const seconds = Math.ceil(delayMs / 1000);
    log.system(`the browser provider is at capacity; the run waits queued and tries again in ${seconds} s`);
    await log.flush();
    run.beat(this.deps.clock.now(), log.bytes);
    if (!run.requeue() || !(await this.deps.runs.update(run, 'RUNNING'))) return;
    this.deps.runChanges.notify(run.id);
    try {
      await this.deps.runQueue.enqueue({ runId: run.id, ownerId: run.ownerId }, { delayMs });
    } catch (error) {
      this.logger.error({ runId: run.id, error: String(error) }, 'could not queue a run again');
      const ending: RunEnding = {
        status: 'FAILED',
        error: { code: 'runner_failed', message: 'The run could not be queued again.' },
        exitCode: null,
      };
      const { changed } = await endRunByCas(this.deps.runs, run, (r) => r.end(ending, this.deps.clock.now()));
      if (changed) this.deps.runChanges.notify(run.id);
    }
  }

  /** Ends the run as `ending`, unless it ended otherwise meanwhile (a cancel, a reaper): that stays. */
  private async end(run: Run, workerId: string, ending: RunEnding, logBytes: number): Promise<void> {
    const now = this.deps.clock.now();
    const { changed } = await endRunByCas(this.deps.runs, run, (r) =>
      r.status === 'RUNNING' && r.workerId === workerId ? r.end(ending, now, logBytes) : false,
    );
    if (changed) this.deps.runChanges.notify(run.id);
  }

  /** The last `seq` and the bytes a run picked up again (after a requeue) has stored already. */
  private async storedLog(run: Run): Promise<{ lastSeq: number; bytes: number }> {
    let lastSeq = 0;
    if (run.logBytes === 0) return { lastSeq, bytes: 0 };
    for (;;) {
      const page = await readLogPage(this.deps.runLogs, run.id, lastSeq, RUN_LOGS_MAX_LIMIT);
      lastSeq = page.lines.at(-1)?.seq ?? lastSeq;
      if (!page.full && page.lines.length < RUN_LOGS_MAX_LIMIT) return { lastSeq, bytes: run.logBytes };
    }
  }

  private get logger(): Logger {
    return this.deps.logger ?? silentLogger;
  }
}

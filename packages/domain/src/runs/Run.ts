import type { SessionRequest } from '../sessions/resolveSessionSettings.ts';
import type { EntityState } from '../shared/EntityState.ts';
import { writable } from '../shared/writable.ts';
import { capRunError, type RunError } from './runRules.ts';
import { isTerminalRunStatus, type RunStatus } from './runStatus.ts';

/** A run's stored fields (not the derived ones): what `Run.restore` takes. */
export type RunState = EntityState<Run, 'isTerminal' | 'durationMs' | 'ownsSession'>;

/** How a run ended, as its worker saw it. */
export type RunEnding =
  | { readonly status: 'SUCCEEDED'; readonly result: unknown; readonly exitCode: number | null }
  | {
      readonly status: 'FAILED' | 'TIMED_OUT' | 'CANCELED';
      readonly error: RunError;
      readonly exitCode: number | null;
    };

/**
 * One execution of a script against a browser session (http-api.md §11). QUEUED → RUNNING →
 * SUCCEEDED | FAILED | TIMED_OUT | CANCELED; a terminal status is final, and every state change is
 * an intent-named method that refuses to leave one.
 */
export class Run {
  readonly id!: string;
  readonly projectId!: string;
  /** The account the run (and the session it creates) counts against: the project's owner. */
  readonly ownerId!: string;
  /** The agent whose script runs; null for an ad-hoc run on a live session. */
  readonly agentId!: string | null;
  /** The session the script drives: set at create for an ad-hoc run, once created for an agent run. */
  readonly sessionId!: string | null;
  readonly status!: RunStatus;
  readonly input!: unknown;
  /** The returned value (any JSON value); null until SUCCEEDED. */
  readonly result!: unknown;
  readonly error!: RunError | null;
  readonly exitCode!: number | null;
  readonly timeoutSec!: number;
  readonly createdAt!: Date;
  readonly startedAt!: Date | null;
  readonly endedAt!: Date | null;
  /** UTF-8 bytes of log lines stored so far. */
  readonly logBytes!: number;
  /** The script, fixed when the run was created (editing the agent later does not change it). */
  readonly script!: string;
  /** The run's variables (a secret: encrypted at rest, never answered). */
  readonly env!: Record<string, string>;
  /**
   * For an agent run, the session it creates (the agent's settings, fixed at create); null for an
   * ad-hoc run, whose session exists already and is not the run's to release.
   */
  readonly sessionRequest!: SessionRequest | null;
  /** The worker executing it while RUNNING; null otherwise. */
  readonly workerId!: string | null;
  /** When that worker last said it is still executing it. */
  readonly heartbeatAt!: Date | null;

  private constructor() {}

  /** A new QUEUED run; the caller has validated the fields. */
  static create(props: {
    id: string;
    projectId: string;
    ownerId: string;
    agentId: string | null;
    sessionId: string | null;
    script: string;
    input: unknown;
    env: Record<string, string>;
    timeoutSec: number;
    sessionRequest: SessionRequest | null;
    now: Date;
  }): Run {
    const { now, ...fields } = props;
    return Object.assign(new Run(), {
      ...fields,
      env: { ...props.env },
      status: 'QUEUED' as RunStatus,
      result: null,
      error: null,
      exitCode: null,
      createdAt: now,
      startedAt: null,
      endedAt: null,
      logBytes: 0,
      workerId: null,
      heartbeatAt: null,
    });
  }

  /** For repositories: the run `state` holds, as it was stored. No validation. */
  static restore(state: RunState): Run {
    // A row stored before errors were bounded is answered cut, never whole.
    return Object.assign(new Run(), state, { error: state.error && capRunError(state.error) });
  }

  get isTerminal(): boolean {
    return isTerminalRunStatus(this.status);
  }

  /** endedAt − startedAt in milliseconds, once both are known; null before. */
  get durationMs(): number | null {
    if (!this.startedAt || !this.endedAt) return null;
    return Math.max(0, this.endedAt.getTime() - this.startedAt.getTime());
  }

  /** True for an agent run: it created its session, and releases it when it ends. */
  get ownsSession(): boolean {
    return this.sessionRequest !== null;
  }

  /** QUEUED → RUNNING, taken by `workerId`. False (and unchanged) from any other status. */
  start(workerId: string, now: Date): boolean {
    if (this.status !== 'QUEUED') return false;
    Object.assign(writable(this), { status: 'RUNNING', workerId, startedAt: now, heartbeatAt: now });
    return true;
  }

  /** RUNNING → QUEUED again (the provider was at capacity): it waits for a worker as before. */
  requeue(): boolean {
    if (this.status !== 'RUNNING') return false;
    Object.assign(writable(this), { status: 'QUEUED', workerId: null, startedAt: null, heartbeatAt: null });
    return true;
  }

  /** The session an agent run created for itself. */
  attachSession(sessionId: string): void {
    writable(this).sessionId = sessionId;
  }

  /** The worker still executes it; `logBytes` as stored so far. */
  beat(now: Date, logBytes: number): void {
    Object.assign(writable(this), { heartbeatAt: now, logBytes });
  }

  /** Ends the run as `ending` says. False (and unchanged) when it had already ended. */
  end(ending: RunEnding, now: Date, logBytes = this.logBytes): boolean {
    if (this.isTerminal) return false;
    const self = writable(this);
    self.status = ending.status;
    self.exitCode = ending.exitCode;
    self.endedAt = now;
    self.startedAt = this.startedAt ?? now;
    self.logBytes = logBytes;
    self.workerId = null;
    if (ending.status === 'SUCCEEDED') {
      self.result = ending.result;
      self.error = null;
    } else {
      self.result = null;
      // Whatever said it (a script's thrown error, a provider), a run answers at most 4 KiB of it.
      self.error = capRunError(ending.error);
    }
    return true;
  }

  /** QUEUED or RUNNING → CANCELED with `message`. False (and unchanged) once terminal. */
  cancel(now: Date, message = 'The run was canceled.'): boolean {
    return this.end({ status: 'CANCELED', error: { code: 'canceled', message }, exitCode: null }, now);
  }
}

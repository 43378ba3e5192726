/** Every status a run can have (http-api.md §11). */
export const RUN_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses a run never leaves. */
export const TERMINAL_RUN_STATUSES = [
  'SUCCEEDED',
  'FAILED',
  'TIMED_OUT',
  'CANCELED',
] as const satisfies readonly RunStatus[];

/** Statuses of a run that is waiting or executing: it may still change, and it may be canceled. */
export const ACTIVE_RUN_STATUSES = ['QUEUED', 'RUNNING'] as const satisfies readonly RunStatus[];

/** True for `SUCCEEDED`, `FAILED`, `TIMED_OUT`, `CANCELED`. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return (TERMINAL_RUN_STATUSES as readonly RunStatus[]).includes(status);
}

/** Every status a session can have (http-api.md §5). */
export const SESSION_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'ERROR', 'TIMED_OUT'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Statuses a session never leaves. */
export const TERMINAL_SESSION_STATUSES = [
  'COMPLETED',
  'ERROR',
  'TIMED_OUT',
] as const satisfies readonly SessionStatus[];
/** Statuses of a session that holds (or is about to hold) a browser. */
export const ACTIVE_SESSION_STATUSES = ['PENDING', 'RUNNING'] as const satisfies readonly SessionStatus[];

/** True for `COMPLETED`, `ERROR`, `TIMED_OUT`. */
export function isTerminalStatus(status: SessionStatus): boolean {
  return (TERMINAL_SESSION_STATUSES as readonly SessionStatus[]).includes(status);
}

/**
 * The status after the provider reports `reported`: a terminal status is final, whatever comes later.
 */
export function nextSessionStatus(current: SessionStatus, reported: SessionStatus): SessionStatus {
  return isTerminalStatus(current) ? current : reported;
}

/**
 * The status a session ends with once it was released, from what the provider's release reported
 * (null: nothing): a session that had already ended on the provider's side keeps the reason it
 * ended for (`ERROR`, `TIMED_OUT`); else `COMPLETED`.
 */
export function statusAfterRelease(
  reported: { readonly status: SessionStatus } | null,
): (typeof TERMINAL_SESSION_STATUSES)[number] {
  return reported?.status === 'ERROR' || reported?.status === 'TIMED_OUT' ? reported.status : 'COMPLETED';
}

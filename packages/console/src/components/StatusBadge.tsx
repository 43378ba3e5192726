import type { RunStatus, SessionStatus } from '../api/types.ts';

/** A session's or a run's status as a coloured badge; the text itself is the status, colour only helps. */
export function StatusBadge({ status }: { status: SessionStatus | RunStatus }) {
  return <span class={`status status-${status.toLowerCase()}`}>{status}</span>;
}

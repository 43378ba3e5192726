import type { Run } from '../api/types.ts';

/** How many characters of a result or error the run list shows. */
export const OUTCOME_PREVIEW_CHARS = 80;

/** Whether a run may still change (and be canceled): `QUEUED` or `RUNNING`. */
export function isActiveRun(run: Pick<Run, 'status'>): boolean {
  return run.status === 'QUEUED' || run.status === 'RUNNING';
}

/** `text` cut to `max` characters, the last one an ellipsis when cut. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * What a run came to, on one line for its row in the run list: its error (`code: message`) when it
 * has one, its result as JSON when it succeeded, an em dash while it has neither; cut to `max`.
 */
export function runOutcome(
  run: Pick<Run, 'status' | 'result' | 'error'>,
  max = OUTCOME_PREVIEW_CHARS,
): string {
  if (run.error) return cut(`${run.error.code}: ${run.error.message}`.replace(/\s+/g, ' '), max);
  if (run.status === 'SUCCEEDED') return cut(JSON.stringify(run.result) ?? 'null', max);
  return '—';
}

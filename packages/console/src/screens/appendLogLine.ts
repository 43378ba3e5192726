import type { RunLogLine } from '../api/types.ts';

/** The most lines a run's log view keeps: the oldest go past it, so a chatty run cannot stall the page. */
export const SHOWN_LOG_LINES = 2000;

/** The lines a run's log view shows, and how many older ones it has let go. */
export interface LogLines {
  readonly lines: readonly RunLogLine[];
  readonly dropped: number;
}

/** No lines yet. */
export const NO_LOG_LINES: LogLines = { lines: [], dropped: 0 };

/**
 * Adds a streamed line: one whose `seq` is not after the last one's is a repeat and changes nothing
 * (`seq` only grows); past `max` lines the oldest are dropped and counted.
 */
export function appendLogLine(current: LogLines, line: RunLogLine, max = SHOWN_LOG_LINES): LogLines {
  const last = current.lines.at(-1);
  if (last && line.seq <= last.seq) return current;
  const lines = [...current.lines, line];
  const over = Math.max(0, lines.length - max);
  return { lines: over > 0 ? lines.slice(over) : lines, dropped: current.dropped + over };
}

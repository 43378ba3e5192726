import type { RunLogLine, RunLogStore } from './RunLogStore.ts';
import { RUN_PAGE_MAX_BYTES, runLogLineBytes } from './runRules.ts';

/** Lines read from the store at a time: at most 1 MiB of 16 KiB lines. */
const CHUNK = 64;
/** What a line adds to a page besides its stream and message (its seq, timestamp and JSON). */
const LINE_OVERHEAD_BYTES = 80;

/** One page of a run's log lines, and whether it ended because the byte budget was spent. */
export interface RunLogPage {
  readonly lines: RunLogLine[];
  /** True when more lines may follow but the page is full of bytes (it is not the run's last). */
  readonly full: boolean;
}

/**
 * The run's lines after `afterSeq`, at most `limit` of them and at most `maxBytes` (the first line
 * always): read from the store a few at a time, so no page holds more than that in memory however
 * long `limit` is.
 */
export async function readLogPage(
  runLogs: RunLogStore,
  runId: string,
  afterSeq: number,
  limit: number,
  maxBytes = RUN_PAGE_MAX_BYTES,
): Promise<RunLogPage> {
  const lines: RunLogLine[] = [];
  let bytes = 0;
  let seq = afterSeq;
  while (lines.length < limit) {
    const want = Math.min(CHUNK, limit - lines.length);
    const chunk = await runLogs.read(runId, seq, want);
    for (const line of chunk) {
      const size = runLogLineBytes(line.stream, line.message) + LINE_OVERHEAD_BYTES;
      if (lines.length > 0 && bytes + size > maxBytes) return { lines, full: true };
      lines.push(line);
      bytes += size;
      seq = line.seq;
    }
    if (chunk.length < want) break;
  }
  return { lines, full: false };
}

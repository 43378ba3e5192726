import type { Run, RunLogLine } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { RunLogLineSchema, RunSchema } from './runSchemas.ts';

/** The JSON of a run (http-api.md §11). */
export type RunJson = z.output<typeof RunSchema>;

/** The JSON of a log line. */
export type RunLogLineJson = z.output<typeof RunLogLineSchema>;

const isoOrNull = (date: Date | null) => (date ? isoTimestamp(date) : null);

/**
 * A run as the API shows it: exactly §11's fields, camelCase, ISO 8601 UTC timestamps with
 * milliseconds. Its script, env (secret), owner, worker and session request are never answered.
 */
export function presentRun(run: Run): RunJson {
  return {
    id: run.id,
    projectId: run.projectId,
    agentId: run.agentId,
    sessionId: run.sessionId,
    status: run.status,
    input: run.input ?? null,
    result: run.result ?? null,
    error: run.error ? { code: run.error.code, message: run.error.message } : null,
    exitCode: run.exitCode,
    timeoutSec: run.timeoutSec,
    createdAt: isoTimestamp(run.createdAt),
    startedAt: isoOrNull(run.startedAt),
    endedAt: isoOrNull(run.endedAt),
    durationMs: run.durationMs,
    logBytes: run.logBytes,
  };
}

/** A log line as the API shows it, in the logs page and as a stream event's data. */
export function presentRunLogLine(line: RunLogLine): RunLogLineJson {
  return {
    seq: line.seq,
    timestamp: isoTimestamp(line.timestamp),
    stream: line.stream,
    message: line.message,
  };
}

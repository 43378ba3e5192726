import type { Run, RunStatus } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../api/shared/isoTimestamp.ts';
import type { BrowserbaseInvocationSchema, INVOCATION_STATUSES } from './browserbaseResponseSchemas.ts';

const STATUS: Readonly<Record<RunStatus, (typeof INVOCATION_STATUSES)[number]>> = {
  QUEUED: 'PENDING',
  RUNNING: 'RUNNING',
  SUCCEEDED: 'COMPLETED',
  FAILED: 'FAILED',
  TIMED_OUT: 'FAILED',
  CANCELED: 'FAILED',
};

/**
 * An agent run as a Browserbase Function invocation: the function is the agent (it has one version,
 * itself), `params` the run's input, `results` its result, `cause` its error with the code in upper
 * case (`TIMED_OUT`, `SCRIPT_ERROR`, …). `expiresAt` is the run's deadline.
 */
export function presentBrowserbaseInvocation(run: Run): z.input<typeof BrowserbaseInvocationSchema> {
  const functionId = run.agentId ?? '';
  const startedAt = run.startedAt ? isoTimestamp(run.startedAt) : null;
  const deadline = new Date((run.startedAt ?? run.createdAt).getTime() + run.timeoutSec * 1000);
  return {
    id: run.id,
    projectId: run.projectId,
    functionId,
    versionId: functionId,
    sessionId: run.sessionId,
    status: STATUS[run.status],
    createdAt: isoTimestamp(run.createdAt),
    updatedAt: isoTimestamp(run.endedAt ?? run.startedAt ?? run.createdAt),
    startedAt,
    expiresAt: isoTimestamp(deadline),
    endedAt: run.endedAt ? isoTimestamp(run.endedAt) : null,
    region: run.sessionRequest?.region ?? null,
    params: run.input ?? {},
    results: run.result ?? null,
    cause: run.error ? { code: run.error.code.toUpperCase(), message: run.error.message } : null,
  };
}

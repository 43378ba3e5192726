import { checkEnv } from '../sessions/sessionRules.ts';
import { type Checks, jsonByteLength } from '../shared/checks.ts';
import { ValidationError } from '../shared/DomainError.ts';
import { jsonTextProblem } from '../shared/textRules.ts';
import {
  RUN_INPUT_MAX_BYTES,
  RUN_TIMEOUT_MAX_SEC,
  RUN_TIMEOUT_MIN_SEC,
  RUN_WAIT_MAX_SEC,
  RUN_WAIT_MIN_SEC,
} from './runRules.ts';

/** What every run create may set (http-api.md §11), checked by `checkRunRequest`. */
export interface RunRequestFields {
  readonly input?: unknown;
  readonly env?: Record<string, string> | undefined;
  readonly timeoutSec?: number | undefined;
}

/**
 * Records the rules of a run's `input` (any JSON value, at most `RUN_INPUT_MAX_BYTES` as JSON, no
 * NUL), its merged `env` (the session env rules) and its `timeoutSec`.
 */
export function checkRunRequest(
  checks: Checks,
  fields: { input: unknown; env: Record<string, string>; timeoutSec: number },
): Checks {
  const serialisable = fields.input === null || safeStringify(fields.input) !== undefined;
  const textProblem = serialisable ? jsonTextProblem(fields.input) : undefined;
  checks
    .require(serialisable, 'input', 'must be a JSON value')
    .require(
      jsonByteLength(fields.input) <= RUN_INPUT_MAX_BYTES,
      'input',
      `must be at most ${RUN_INPUT_MAX_BYTES} bytes as JSON`,
    )
    .require(textProblem === undefined, 'input', textProblem ?? '')
    .integerIn(fields.timeoutSec, 'timeoutSec', RUN_TIMEOUT_MIN_SEC, RUN_TIMEOUT_MAX_SEC);
  return checkEnv(checks, fields.env, 'env');
}

/** `input` as stored: a plain JSON value (JSON's own round trip), null when absent. */
export function runInputOf(input: unknown): unknown {
  if (input === undefined || input === null) return null;
  return JSON.parse(JSON.stringify(input)) as unknown;
}

/** Throws `validation_failed` on `wait` unless `waitSec` is a number of seconds within 0..60. */
export function checkWaitSec(waitSec: number): void {
  if (!Number.isFinite(waitSec) || waitSec < RUN_WAIT_MIN_SEC || waitSec > RUN_WAIT_MAX_SEC)
    throw ValidationError.field('wait', `must be from ${RUN_WAIT_MIN_SEC} to ${RUN_WAIT_MAX_SEC} seconds`);
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

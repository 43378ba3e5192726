import { utf8Length } from '../shared/checks.ts';
import { jsonTextProblem } from '../shared/textRules.ts';
import type { RunEnding } from './Run.ts';
import { RUN_RESULT_MAX_BYTES } from './runRules.ts';
import type { ScriptOutcome } from './ScriptRunner.ts';

/** Why a run ended CANCELED when the instance executing it shut down. */
export const RUN_SHUTDOWN_MESSAGE = 'The run was canceled: the server shut down.';

/** How a run ends after its script's process ended as `outcome`. */
export function runEndingOf(outcome: ScriptOutcome, timeoutSec: number): RunEnding {
  const { exitCode } = outcome;
  switch (outcome.kind) {
    case 'returned':
      return returnedEnding(outcome.resultJson, exitCode);
    case 'failed':
      return { status: 'FAILED', error: { code: outcome.code, message: outcome.message }, exitCode };
    case 'timed_out':
      return {
        status: 'TIMED_OUT',
        error: { code: 'timed_out', message: `The run passed its timeoutSec of ${timeoutSec} s.` },
        exitCode,
      };
    case 'aborted':
      // A cancel has stored its own CANCELED before aborting the script, and keeps it: this
      // message is stored only when nothing else stopped the run, i.e. the instance shut down.
      return { status: 'CANCELED', error: { code: 'canceled', message: RUN_SHUTDOWN_MESSAGE }, exitCode };
  }
}

function returnedEnding(resultJson: string, exitCode: number | null): RunEnding {
  const tooLarge = (message: string): RunEnding => ({
    status: 'FAILED',
    error: { code: 'result_too_large', message },
    exitCode,
  });
  if (utf8Length(resultJson) > RUN_RESULT_MAX_BYTES)
    return tooLarge(`The returned value is over ${RUN_RESULT_MAX_BYTES} bytes as JSON.`);
  let result: unknown;
  try {
    result = JSON.parse(resultJson);
  } catch {
    return tooLarge('The returned value is not JSON.');
  }
  const problem = jsonTextProblem(result);
  if (problem) return tooLarge(`The returned value cannot be stored: ${problem}.`);
  return { status: 'SUCCEEDED', result, exitCode };
}

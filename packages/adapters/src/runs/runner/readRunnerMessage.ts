import {
  RUN_ERROR_MESSAGE_MAX_BYTES,
  RUN_LOG_LINE_MAX_BYTES,
  RUN_RESULT_MAX_BYTES,
} from '@browserdeck/domain';
import { z } from 'zod';
import type { RunnerMessage } from './child/runnerProtocol.mts';

/** Why a line from the run's process is not a message it may send; the run then ends `runner_failed`. */
export class RunnerProtocolViolation extends Error {}

/**
 * Longest `log` and `error` messages, in characters: the runner cuts to these before it sends
 * (`RunnerJob`), one more than a stored line or error holds, so the service's cut is marked.
 */
export const MESSAGE_MAX_CHARS = { log: RUN_LOG_LINE_MAX_BYTES + 1, error: RUN_ERROR_MESSAGE_MAX_BYTES + 1 };

const milliseconds = z.number().nonnegative().finite();

/** Every message the process may send, each field typed and sized; an unknown field is refused. */
const MESSAGE = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('connected'), connectMs: milliseconds }),
  z.strictObject({
    type: z.literal('log'),
    // `system` lines come from the service alone.
    stream: z.enum(['stdout', 'stderr', 'console']),
    message: z.string().max(MESSAGE_MAX_CHARS.log),
  }),
  z.strictObject({
    type: z.literal('result'),
    // Its size in bytes is checked below; no more characters than bytes.
    json: z.string().max(RUN_RESULT_MAX_BYTES),
    scriptMs: milliseconds,
  }),
  z.strictObject({
    type: z.literal('error'),
    code: z.enum(['script_error', 'script_invalid', 'result_too_large', 'runner_failed']),
    message: z.string().max(MESSAGE_MAX_CHARS.error),
    scriptMs: milliseconds.nullable(),
  }),
]);

/**
 * The message one line of the process's fd 3 holds, checked against the runner protocol
 * (`runnerProtocol.mts`) and its sizes; throws `RunnerProtocolViolation` naming what is wrong. A
 * script can write that pipe itself, so nothing on it is trusted: a result must also be JSON of at
 * most `RUN_RESULT_MAX_BYTES`.
 */
export function readRunnerMessage(line: string): RunnerMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new RunnerProtocolViolation('a message that is not JSON');
  }
  const checked = MESSAGE.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new RunnerProtocolViolation(
      `a message the protocol does not allow${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const message = checked.data;
  if (message.type === 'result') {
    if (Buffer.byteLength(message.json, 'utf8') > RUN_RESULT_MAX_BYTES)
      throw new RunnerProtocolViolation(`a result over ${RUN_RESULT_MAX_BYTES} bytes`);
    try {
      JSON.parse(message.json);
    } catch {
      throw new RunnerProtocolViolation('a result that is not JSON');
    }
  }
  return message;
}

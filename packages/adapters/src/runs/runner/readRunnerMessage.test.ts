import { RUN_RESULT_MAX_BYTES } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX_CHARS, RunnerProtocolViolation, readRunnerMessage } from './readRunnerMessage.ts';

const read = (message: unknown) => readRunnerMessage(JSON.stringify(message));
const refusal = (message: unknown): string => {
  try {
    read(message);
  } catch (error) {
    if (error instanceof RunnerProtocolViolation) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('readRunnerMessage', () => {
  it('takes every message of the protocol as it is', () => {
    for (const message of [
      { type: 'ready' },
      { type: 'connected', connectMs: 12.5 },
      { type: 'log', stream: 'stdout', message: 'hello' },
      { type: 'log', stream: 'stderr', message: '' },
      { type: 'log', stream: 'console', message: 'x'.repeat(MESSAGE_MAX_CHARS.log) },
      { type: 'result', json: '{"a":[1,2]}', scriptMs: 3 },
      { type: 'error', code: 'script_error', message: 'boom', scriptMs: null },
    ])
      expect(read(message)).toEqual(message);
  });

  it('refuses a system line, an invented stream or a stream of any size', () => {
    expect(refusal({ type: 'log', stream: 'system', message: 'session x released' })).toMatch(/at stream/);
    expect(refusal({ type: 'log', stream: 'x'.repeat(1024 * 1024), message: '' })).toMatch(/at stream/);
    expect(refusal({ type: 'log', stream: 'warn', message: 'hi' })).toMatch(/at stream/);
  });

  it('refuses a field too long, of the wrong type, missing or unknown', () => {
    expect(
      refusal({ type: 'log', stream: 'stdout', message: 'x'.repeat(MESSAGE_MAX_CHARS.log + 1) }),
    ).toMatch(/at message/);
    expect(
      refusal({ type: 'error', code: 'script_error', message: 'x'.repeat(7_000_000), scriptMs: 1 }),
    ).toMatch(/at message/);
    expect(refusal({ type: 'log', stream: 'stdout', message: 42 })).toMatch(/at message/);
    expect(refusal({ type: 'connected' })).toMatch(/at connectMs/);
    expect(refusal({ type: 'connected', connectMs: -1 })).toMatch(/at connectMs/);
    expect(refusal({ type: 'ready', extra: 'x'.repeat(100) })).toMatch(/does not allow/);
    expect(refusal({ type: 'error', code: 'session_failed', message: 'x', scriptMs: 1 })).toMatch(/at code/);
    expect(refusal({ type: 'exit' })).toMatch(/at type/);
    expect(refusal(['ready'])).toMatch(/does not allow/);
  });

  it('refuses a line that is not JSON, and a result that is not JSON or too large', () => {
    expect(() => readRunnerMessage('{"type":"ready"')).toThrow('not JSON');
    expect(refusal({ type: 'result', json: '{', scriptMs: 1 })).toBe('a result that is not JSON');
    const big = `"${'é'.repeat(RUN_RESULT_MAX_BYTES / 2)}"`;
    expect(refusal({ type: 'result', json: big, scriptMs: 1 })).toBe(
      `a result over ${RUN_RESULT_MAX_BYTES} bytes`,
    );
  });
});

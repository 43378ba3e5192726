import { describe, expect, it } from 'vitest';
import { isActiveRun, OUTCOME_PREVIEW_CHARS, runOutcome } from './runOutcome.ts';

describe('runOutcome', () => {
  it('shows a succeeded run’s result as one line of JSON', () => {
    expect(runOutcome({ status: 'SUCCEEDED', result: { title: 'Example Domain' }, error: null })).toBe(
      '{"title":"Example Domain"}',
    );
    expect(runOutcome({ status: 'SUCCEEDED', result: null, error: null })).toBe('null');
    expect(runOutcome({ status: 'SUCCEEDED', result: 'line\nbreak', error: null })).toBe('"line\\nbreak"');
  });

  it('cuts a long result to the preview length, ending in an ellipsis', () => {
    const outcome = runOutcome({ status: 'SUCCEEDED', result: 'x'.repeat(500), error: null });
    expect(outcome).toHaveLength(OUTCOME_PREVIEW_CHARS);
    expect(outcome).toBe(`"${'x'.repeat(OUTCOME_PREVIEW_CHARS - 2)}…`);
  });

  it('shows the error of a run that failed, timed out or was canceled, on one line', () => {
    expect(
      runOutcome({
        status: 'FAILED',
        result: null,
        error: { code: 'script_error', message: 'boom\n    at run (script.js:1)' },
      }),
    ).toBe('script_error: boom at run (script.js:1)');
    expect(
      runOutcome({ status: 'CANCELED', result: null, error: { code: 'canceled', message: 'Canceled.' } }),
    ).toBe('canceled: Canceled.');
  });

  it('shows nothing for a run that has not ended', () => {
    expect(runOutcome({ status: 'QUEUED', result: null, error: null })).toBe('—');
    expect(runOutcome({ status: 'RUNNING', result: null, error: null })).toBe('—');
  });
});

describe('isActiveRun', () => {
  it('is true while a run is queued or running, and for no terminal status', () => {
    expect(['QUEUED', 'RUNNING'].every((status) => isActiveRun({ status: status as 'QUEUED' }))).toBe(true);
    for (const status of ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELED'] as const) {
      expect(isActiveRun({ status }), status).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseRunnerTimingsLine, runnerTimingsLine } from './runnerTimingsLine.ts';

describe('runnerTimingsLine', () => {
  it('tells a warm run in whole milliseconds, and reads back as it was told', () => {
    const timings = {
      warm: true,
      waitMs: 0.6,
      spawnMs: 311.7,
      connectMs: 21.2,
      scriptMs: 43.5,
      totalMs: 96.4,
    };
    const line = runnerTimingsLine(timings);
    expect(line).toBe('runner timings (ms): wait 1, spawn 312 (warm), connect 21, script 44, total 96');
    expect(parseRunnerTimingsLine(line)).toEqual({
      warm: true,
      waitMs: 1,
      spawnMs: 312,
      connectMs: 21,
      scriptMs: 44,
      totalMs: 96,
    });
  });

  it('marks a cold process and the phases a run never reached', () => {
    const line = runnerTimingsLine({
      warm: false,
      waitMs: 402,
      spawnMs: 398,
      connectMs: null,
      scriptMs: null,
      totalMs: 410,
    });
    expect(line).toBe('runner timings (ms): wait 402, spawn 398 (cold), connect –, script –, total 410');
    expect(parseRunnerTimingsLine(line)).toMatchObject({ warm: false, connectMs: null, scriptMs: null });
  });

  it('reads no other line', () => {
    expect(parseRunnerTimingsLine('session 1 ready')).toBeNull();
    expect(parseRunnerTimingsLine('runner timings (ms): wait 1')).toBeNull();
  });
});

import { join } from 'node:path';
import {
  ConfinedScriptRunner,
  type ConfinedScriptRunnerOptions,
  type RunTimings,
} from '@browserdeck/adapters/runs';
import type { ScriptJob, ScriptOutcome, ScriptOutput } from '@browserdeck/domain';
import { afterAll, beforeAll } from 'vitest';
import { browserRequest, startLocalProvider } from './localChromiumTestKit.ts';

/** A started runner and a live session of a real local Chromium to run scripts against. */
export interface ScriptRunnerHarness {
  readonly runner: ConfinedScriptRunner;
  /** The session's `connectUrl`: its port is the service's own (the provider's upgrade server). */
  readonly cdpUrl: string;
  readonly timings: RunTimings[];
  /** Runs `script` (30 s deadline, no input, empty env unless overridden) and collects its lines. */
  run(
    script: string,
    overrides?: Partial<ScriptJob>,
    options?: { signal?: AbortSignal; onLine?: (line: ScriptOutput) => void },
  ): Promise<{ outcome: ScriptOutcome; lines: ScriptOutput[] }>;
}

/**
 * Starts, for the enclosing `describe`, a local provider with one session and a runner on a runs
 * folder of its own (`options` over the defaults), and stops both afterwards.
 */
export function givenScriptRunner(
  options: Partial<ConfinedScriptRunnerOptions> = {},
): () => ScriptRunnerHarness {
  let harness: ScriptRunnerHarness | null = null;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const started = await startLocalProvider();
    const timings: RunTimings[] = [];
    const runner = new ConfinedScriptRunner({
      runsDir: join(started.dataDir, 'runs'),
      onTimings: (t) => timings.push(t),
      ...options,
    });
    close = async () => {
      await runner.close();
      await started.close();
    };
    await runner.start();
    const cdpUrl = (await started.provider.create(browserRequest())).connectUrl;
    harness = {
      runner,
      cdpUrl,
      timings,
      async run(script, overrides = {}, runOptions = {}) {
        const lines: ScriptOutput[] = [];
        const outcome = await runner.run(
          {
            runId: `run-${timings.length}`,
            script,
            input: null,
            env: {},
            timeoutMs: 30_000,
            cdpUrl,
            ...overrides,
          },
          (line) => {
            lines.push(line);
            runOptions.onLine?.(line);
          },
          runOptions.signal ?? new AbortController().signal,
        );
        return { outcome, lines };
      },
    };
  });
  afterAll(() => close());
  return () => {
    if (!harness) throw new Error('the script runner harness is not started yet');
    return harness;
  };
}

/** The lines of one stream, as text. */
export function linesOf(lines: readonly ScriptOutput[], stream: ScriptOutput['stream']): string[] {
  return lines.filter((l) => l.stream === stream).map((l) => l.message);
}

/** The value a run returned (failing the test when it did not return). */
export function resultOf(outcome: ScriptOutcome): unknown {
  if (outcome.kind !== 'returned') throw new Error(`the run did not return: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.resultJson);
}

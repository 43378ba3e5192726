import type { RunQueue, RunRepository } from '@browserdeck/domain';
import type { MetricsRegistry } from '../observability/MetricsRegistry.ts';

/** Upper bounds, in seconds, of the run duration buckets: a second up to the longest timeout. */
const RUN_DURATION_BUCKETS_SEC = [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21_600];
/** Upper bounds, in seconds, of the runner spawn buckets (spawn to ready). */
const RUN_SPAWN_BUCKETS_SEC = [0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5];

/** The hooks the worker and the script runner report through. */
export interface RunMetricHooks {
  /** An execution is over: its run's duration, by final status, once per run. */
  runDone(runId: string): void;
  /** A run's process took `spawnMs` from spawn to ready. */
  spawned(spawnMs: number): void;
}

/**
 * Registers the run metrics: `browserdeck_runs` by status and `browserdeck_run_queue_depth`, read at
 * every scrape; `browserdeck_run_duration_seconds` by final status and `browserdeck_run_spawn_seconds`,
 * observed through the returned hooks.
 */
export function registerRunMetrics(
  metrics: MetricsRegistry,
  deps: { runs: RunRepository; queue: RunQueue },
): RunMetricHooks {
  metrics.gaugeByLabel('browserdeck_runs', 'Runs by status, in every project.', 'status', () =>
    deps.runs.countByStatus(),
  );
  metrics.gauge('browserdeck_run_queue_depth', 'Runs waiting for a worker, delayed ones included.', () =>
    deps.queue.depth(),
  );
  // Runs counted lately: an execution that found its run already over (a duplicate) does not count it again.
  const counted = new Set<string>();
  return {
    runDone(runId) {
      void deps.runs.findById(runId).then(
        (run) => {
          if (!run?.isTerminal || run.durationMs === null || counted.has(runId)) return;
          counted.add(runId);
          if (counted.size > 10_000) counted.delete(counted.values().next().value as string);
          metrics.observe(
            'browserdeck_run_duration_seconds',
            'How long runs ran, from start to end, by final status.',
            { status: run.status },
            run.durationMs / 1000,
            RUN_DURATION_BUCKETS_SEC,
          );
        },
        () => {},
      );
    },
    spawned(spawnMs) {
      metrics.observe(
        'browserdeck_run_spawn_seconds',
        "Time from a run's process spawn to its script being ready to start.",
        {},
        spawnMs / 1000,
        RUN_SPAWN_BUCKETS_SEC,
      );
    },
  };
}

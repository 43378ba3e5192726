import { randomUUID } from 'node:crypto';
import { type BrowserdeckUseCases, RUN_CONCURRENCY_DEFAULT, type Timers } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { RunWorkQueue } from '../runs/queue/RunWorkQueue.ts';
import { RunWorker } from '../runs/RunWorker.ts';
import type { RunsOptions } from './BrowserdeckOptions.ts';

/** How long running runs may go on at close by default, in seconds. */
const SHUTDOWN_GRACE_SEC_DEFAULT = 5;

/**
 * This instance's run worker over the composed use cases (overrides included), with the `runs`
 * options' defaults. Its instance id is the provider's where it has one (the local provider's), so
 * the sweep for lost runs can tell that instance's browsers went with it.
 */
export function createRunWorker(deps: {
  useCases: Pick<BrowserdeckUseCases, 'runs'>;
  queue: RunWorkQueue;
  timers: Timers;
  provider: ComposableBrowserProvider;
  runs: RunsOptions;
  logger: Logger;
  onRunDone: (runId: string) => void;
}): RunWorker {
  const { runs } = deps;
  return new RunWorker({
    queue: deps.queue,
    execute: deps.useCases.runs.execute,
    reapLost: deps.useCases.runs.reapLost,
    timers: deps.timers,
    logger: deps.logger.child({ component: 'run-worker' }),
    instanceId: deps.provider.instanceId ?? randomUUID(),
    takesRuns: runs.worker ?? true,
    concurrency: runs.concurrency ?? RUN_CONCURRENCY_DEFAULT,
    shutdownGraceSec: runs.shutdownGraceSec ?? SHUTDOWN_GRACE_SEC_DEFAULT,
    onRunDone: deps.onRunDone,
  });
}

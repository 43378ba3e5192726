import { randomUUID } from 'node:crypto';
import { type BrowserdeckUseCases, RUN_CONCURRENCY_DEFAULT, type Timers } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { RunWorkQueue } from '../runs/queue/RunWorkQueue.ts';
import { RunWorker } from '../runs/RunWorker.ts';
import type { RunsOptions } from './BrowserdeckOptions.ts';
import type { Part } from './lifecycle/Part.ts';

/** How long running runs may go on at close by default, in seconds. */
const SHUTDOWN_GRACE_SEC_DEFAULT = 5;

/**
 * This instance's run worker over the composed use cases (overrides included), with the `runs`
 * options' defaults, as the part that drains first at close: its canceled runs release their
 * sessions while the provider and the database are still there. Its instance id is the provider's
 * where it has one (the local provider's), so the sweep for lost runs can tell that instance's
 * browsers went with it.
 */
export function openRunWorker(deps: {
  useCases: Pick<BrowserdeckUseCases, 'runs'>;
  queue: RunWorkQueue;
  timers: Timers;
  provider: ComposableBrowserProvider;
  runs: RunsOptions;
  logger: Logger;
  onRunDone: (runId: string) => void;
}): Part {
  const { runs } = deps;
  const worker = new RunWorker({
    queue: deps.queue,
    execute: deps.useCases.runs.execute,
    reapLost: deps.useCases.runs.reapLost,
    timers: deps.timers,
    logger: deps.logger.child({ component: 'run-worker' }),
    instanceId: deps.provider.capabilities.placement?.instanceId ?? randomUUID(),
    takesRuns: runs.worker ?? true,
    concurrency: runs.concurrency ?? RUN_CONCURRENCY_DEFAULT,
    shutdownGraceSec: runs.shutdownGraceSec ?? SHUTDOWN_GRACE_SEC_DEFAULT,
    onRunDone: deps.onRunDone,
  });
  return { name: 'run-worker', phase: 'drain', start: () => worker.start(), stop: () => worker.close() };
}

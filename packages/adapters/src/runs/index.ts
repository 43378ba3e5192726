// Runs (http-api.md §11) for hosts that compose their own: the queues, the worker, in-process run
// changes, system timers and the confined script runner. `createBrowserdeck` composes them all.
export { InProcessRunChanges } from './InProcessRunChanges.ts';
export { InProcessRunQueue, type InProcessRunQueueDeps } from './queue/InProcessRunQueue.ts';
export { type PgBossConnection, PgBossRunQueue, type PgBossRunQueueOptions } from './queue/PgBossRunQueue.ts';
export type { RunQueueConsumer, RunWorkQueue } from './queue/RunWorkQueue.ts';
export { type ExecuteRunCase, type ReapLostRunsCase, RunWorker, type RunWorkerDeps } from './RunWorker.ts';
export {
  ConfinedScriptRunner,
  type ConfinedScriptRunnerOptions,
  type RunTimings,
} from './runner/index.ts';
export { SystemTimers } from './SystemTimers.ts';

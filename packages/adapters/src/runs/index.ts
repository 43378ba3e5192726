// Runs (http-api.md §11) for hosts that compose their own: the queues, the worker, in-process run
// changes, system timers and the confined script runner (with the parser of the timings line that
// ends a run's `system` log). `createBrowserdeck` composes them all.
export { InProcessRunChanges } from './InProcessRunChanges.ts';
export { InProcessRunQueue, type InProcessRunQueueDeps } from './queue/InProcessRunQueue.ts';
export { type PgBossConnection, PgBossRunQueue, type PgBossRunQueueOptions } from './queue/PgBossRunQueue.ts';
export type { RunQueueConsumer, RunWorkQueue } from './queue/RunWorkQueue.ts';
export { type ExecuteRunCase, type ReapLostRunsCase, RunWorker, type RunWorkerDeps } from './RunWorker.ts';
export {
  ConfinedScriptRunner,
  type ConfinedScriptRunnerOptions,
  parseRunnerTimingsLine,
  type RunTimings,
  type RunTimingsOfLine,
} from './runner/index.ts';
export { SystemTimers } from './SystemTimers.ts';

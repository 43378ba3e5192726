import type { Clock, ReconcileSessions } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { Part } from './lifecycle/Part.ts';
import { SessionReconciler } from './SessionReconciler.ts';

/** The reconciler as a part, with its last pass for the provider's close. */
export interface OpenedSessionReconciler extends Part {
  /** One last pass, also once stopped: stores the sessions the provider has just ended. */
  flush(): Promise<void>;
}

/**
 * The background reconciler of sessions' status, every `intervalSec`: drained at close (the pass
 * under way finishes), before the provider ends its sessions and asks it for one last pass.
 */
export function openSessionReconciler(deps: {
  reconcile: Pick<ReconcileSessions, 'execute'>;
  logger: Logger;
  intervalSec: number;
  clock: Clock;
}): OpenedSessionReconciler {
  const reconciler = new SessionReconciler(deps);
  return {
    name: 'session-reconciler',
    phase: 'drain',
    start: () => reconciler.start(),
    stop: () => reconciler.stop(),
    flush: () => reconciler.flush(),
  };
}

import type { EndLostInstanceSessions } from '@browserdeck/domain';
import type { Part } from './lifecycle/Part.ts';
import type { OpenedInstances } from './openInstances.ts';

/**
 * Joins the instances sharing the database before anything is served (sessions a previous run of
 * this instance left active are ended), and returns the part that beats and sweeps once started.
 * It drains at close, before the provider ends its sessions: its row is removed, so the others stop
 * routing calls to it.
 */
export async function openMembership(
  instances: Pick<OpenedInstances, 'membership'>,
  endLostInstance: Pick<EndLostInstanceSessions, 'execute'>,
): Promise<Part> {
  const membership = instances.membership(endLostInstance);
  await membership.join();
  return {
    name: 'instance-membership',
    phase: 'drain',
    start: () => membership.start(),
    stop: () => membership.stop(),
  };
}

import { FakeBrowserProvider } from './FakeBrowserProvider.ts';
import { givenSessionWorld } from './givenSessionWorld.ts';

/**
 * Two server instances on one store, with a provider whose browsers live in one process (as
 * `local`): `provider` is instance `a`'s, where `startSession` starts sessions; `other` is instance
 * `b`'s, which knows nothing of `a`'s browsers.
 */
export async function givenTwoInstances() {
  const world = await givenSessionWorld({ instanceId: 'instance-a' });
  const other = new FakeBrowserProvider({ clock: world.clock, instanceId: 'instance-b' });
  return { ...world, other };
}

import { ProviderError } from '@browserdeck/domain';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import { type MethodWrapper, WrappingProvider } from '../browsers/wrapMethods.ts';
import type { InstanceClient } from './InstanceClient.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';
import type { InstanceRecord } from './InstanceRegistry.ts';
import { INSTANCE_CALLS, type InstanceCall, type RoutedMethod } from './instanceCalls.ts';

/** The registry's calls that carry a provider method, by capability and method. */
const ROUTED = Map.groupBy(
  Object.values(INSTANCE_CALLS as Record<string, InstanceCall>).filter((call) => call.routes),
  (call) => call.routes?.capability ?? 'sessions',
);

/**
 * The configured provider, reaching the sessions other instances hold (`placement.reachesOtherInstances`):
 * every method the call registry routes (`INSTANCE_CALLS`' `routes`: `get`, `release`, `logs`,
 * `downloads`, `upload`) about a session whose browser another live instance holds is carried to
 * that instance (`InstanceClient`), which asks its own provider; everything else is the inner
 * provider's. Generic over the registry: a method it routes needs no edit here. A holder that has
 * gone silent is not called: the method answers what its entry says (`whenHolderLost`: `get` is
 * `provider_unavailable`, the session answered as stored until the survivors end it `ERROR`; `logs`
 * are none; `release` asks the inner provider, which frees a Grid session from any instance, and
 * reports the session `ERROR`; `downloads` are the inner provider's when it has them, as the local
 * provider has an ended session's in the shared blob store, else `provider_unavailable`).
 */
export class InstanceRoutedProvider extends WrappingProvider {
  constructor(deps: {
    provider: ComposableBrowserProvider;
    directory: InstanceDirectory;
    client: InstanceClient;
  }) {
    const routing: Routing = { directory: deps.directory, client: deps.client };
    super(deps.provider, {
      sessions: router(routing, 'sessions'),
      // Every capability the registry routes a method of, by name: a new one needs no edit here.
      capabilities: Object.fromEntries(
        [...ROUTED.keys()].filter((name) => name !== 'sessions').map((name) => [name, router(routing, name)]),
      ),
      adjust: (capabilities) => ({
        ...capabilities,
        ...(capabilities.placement
          ? { placement: { instanceId: capabilities.placement.instanceId, reachesOtherInstances: true } }
          : {}),
      }),
    });
  }
}

/** Where a routed call finds its session's holder, and how it reaches it. */
interface Routing {
  readonly directory: InstanceDirectory;
  readonly client: InstanceClient;
}

/** Runs the registry's methods of `capability` at the holder of their session; the others here. */
function router(routing: Routing, capability: RoutedMethod['capability']): MethodWrapper {
  const calls = new Map((ROUTED.get(capability) ?? []).map((call) => [call.routes?.method, call]));
  return (method, args, call) => {
    const routed = calls.get(method);
    return routed ? route(routing, routed, args, () => call() as Promise<unknown>) : call();
  };
}

async function route(
  { directory, client }: Routing,
  call: InstanceCall,
  args: unknown[],
  here: () => Promise<unknown>,
): Promise<unknown> {
  const routes = call.routes as RoutedMethod;
  const holder = await directory.liveHolder({ providerSessionId: String(args[0]) });
  if (!holder) return here();
  if (!holder.record) return routes.whenHolderLost(lost(holder.id, directory.lostAfterMs), here);
  return routes.fromAnswer(await forward(client, holder.record, call, routes.toInput(args)));
}

function forward(
  client: InstanceClient,
  peer: InstanceRecord,
  call: InstanceCall,
  input: ReturnType<RoutedMethod['toInput']>,
): Promise<unknown> {
  if (call.kind === 'download') return client.download(peer, call, input.params);
  if (call.kind === 'upload')
    return client.upload(peer, call, input, input.content ?? (async function* () {})());
  return client.json(peer, call, input);
}

function lost(instanceId: string, lostAfterMs: number): ProviderError {
  return new ProviderError(
    'provider_unavailable',
    `The instance holding this session's browser (${instanceId}) has stopped answering; ` +
      `its sessions are ended ERROR within ${Math.ceil(lostAfterMs / 1000)} s of its last heartbeat.`,
  );
}

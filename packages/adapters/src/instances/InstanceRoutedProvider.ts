import { ProviderError, type ProviderSessions } from '@browserdeck/domain';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import {
  type MethodWrapper,
  rewrapWhenChanged,
  wrapCapabilities,
  wrapMethods,
} from '../browsers/wrapMethods.ts';
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
 * reports the session `ERROR`).
 */
export class InstanceRoutedProvider implements ComposableBrowserProvider {
  readonly name: string;
  readonly regions: readonly string[];
  readonly defaultProviderProjectId: string;
  readonly sessions: ProviderSessions;
  private readonly directory: InstanceDirectory;
  private readonly wrapped: () => AdapterCapabilities;
  private readonly client: InstanceClient;

  constructor(deps: {
    provider: ComposableBrowserProvider;
    directory: InstanceDirectory;
    client: InstanceClient;
  }) {
    const { provider } = deps;
    this.directory = deps.directory;
    this.client = deps.client;
    this.name = provider.name;
    this.regions = provider.regions;
    this.defaultProviderProjectId = provider.defaultProviderProjectId;
    this.sessions = wrapMethods(provider.sessions, this.router('sessions'));
    // Every capability the registry routes a method of, by name: a new one needs no edit here.
    const routers = Object.fromEntries(
      [...ROUTED.keys()].filter((name) => name !== 'sessions').map((name) => [name, this.router(name)]),
    );
    this.wrapped = rewrapWhenChanged(
      () => provider.capabilities,
      (capabilities) => ({
        ...wrapCapabilities(capabilities, routers),
        ...(capabilities.placement
          ? { placement: { instanceId: capabilities.placement.instanceId, reachesOtherInstances: true } }
          : {}),
      }),
    );
  }

  get capabilities(): AdapterCapabilities {
    return this.wrapped();
  }

  private router(capability: RoutedMethod['capability']): MethodWrapper {
    const calls = new Map((ROUTED.get(capability) ?? []).map((call) => [call.routes?.method, call]));
    return (method, args, call) => {
      const routed = calls.get(method);
      return routed ? this.route(routed, args, () => call() as Promise<unknown>) : call();
    };
  }

  private async route(call: InstanceCall, args: unknown[], here: () => Promise<unknown>): Promise<unknown> {
    const routes = call.routes as RoutedMethod;
    const holder = await this.directory.liveHolder({ providerSessionId: String(args[0]) });
    if (!holder) return here();
    if (!holder.record) return routes.whenHolderLost(lost(holder.id, this.directory.lostAfterMs), here);
    return routes.fromAnswer(await this.forward(holder.record, call, routes.toInput(args)));
  }

  private forward(
    peer: InstanceRecord,
    call: InstanceCall,
    input: ReturnType<RoutedMethod['toInput']>,
  ): Promise<unknown> {
    if (call.kind === 'download') return this.client.download(peer, call, input.params);
    if (call.kind === 'upload') {
      return this.client.upload(peer, call, input, input.content ?? (async function* () {})());
    }
    return this.client.json(peer, call, input);
  }
}

function lost(instanceId: string, lostAfterMs: number): ProviderError {
  return new ProviderError(
    'provider_unavailable',
    `The instance holding this session's browser (${instanceId}) has stopped answering; ` +
      `its sessions are ended ERROR within ${Math.ceil(lostAfterMs / 1000)} s of its last heartbeat.`,
  );
}

import { randomUUID } from 'node:crypto';
import type { BrowserProvider, EndLostInstanceSessions } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { LiveViewHub } from '../browsers/live-view/LiveViewHub.ts';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { AuthenticateInstance } from '../http/koa/kernel/routing/InstanceCaller.ts';
import type { PassthroughForwarding } from '../http/koa/kernel/routing/servePassthroughs.ts';
import type { UpgradeForwarding } from '../http/koa/kernel/routing/serveUpgrades.ts';
import { authenticateInstanceCall } from '../instances/authenticateInstanceCall.ts';
import { InstanceAuth } from '../instances/InstanceAuth.ts';
import { InstanceClient } from '../instances/InstanceClient.ts';
import { InstanceDirectory } from '../instances/InstanceDirectory.ts';
import { InstanceForwarder } from '../instances/InstanceForwarder.ts';
import type { InstanceHoldings } from '../instances/InstanceHoldings.ts';
import { InstanceMembership } from '../instances/InstanceMembership.ts';
import type { InstanceRegistry, SessionKey } from '../instances/InstanceRegistry.ts';
import { InstanceRoutedLiveViewHub } from '../instances/InstanceRoutedLiveViewHub.ts';
import { InstanceRoutedProvider } from '../instances/InstanceRoutedProvider.ts';
import type { InstanceCallTargets } from '../instances/instanceCalls.ts';
import type { SecretBox } from '../persistence/secrets/SecretBox.ts';
import type { Part } from './lifecycle/Part.ts';

/**
 * How an instance takes part among several: what the composition wires in, as the part that closes
 * the forwarder while draining.
 */
export interface OpenedInstances extends Part {
  /** The provider the use cases call: it carries calls about other instances' sessions to them. */
  readonly provider: ComposableBrowserProvider;
  /** The other instances' calls (`/internal/v1/…`): what serves them and the check of their signatures. */
  readonly calls: { targets: InstanceCallTargets; authenticate: AuthenticateInstance };
  /** Offers each session upgrade to its holder first. */
  readonly forwardUpgrade: UpgradeForwarding;
  /** Offers each session passthrough request (WebDriver) to its holder first. */
  readonly forwardPassthrough: PassthroughForwarding;
  readonly forwarder: InstanceForwarder;
  /** The live-view hub that also lists the tabs of other instances' sessions; none without a hub. */
  readonly liveView: LiveViewHub | undefined;
  /** Joins (once the use cases exist), beats and sweeps. */
  membership(endLostInstance: Pick<EndLostInstanceSessions, 'execute'>): InstanceMembership;
}

/**
 * The instance timings from the reconcile interval: an instance silent for half of it (at least 2 s)
 * is lost, and heartbeats come four times as often, so a dead holder's sessions end within one
 * interval of its death (silence, a sweep, a one-second ping).
 */
export function instanceTimings(reconcileIntervalSec: number): { lostAfterMs: number; heartbeatMs: number } {
  const lostAfterMs = Math.max(2_000, (reconcileIntervalSec * 1000) / 2);
  return { lostAfterMs, heartbeatMs: Math.round(lostAfterMs / 4) };
}

/**
 * Wires this instance among the ones sharing `registry` (docs/scaling.md, ADR 0024): the signed
 * calls between them (`InstanceAuth` keyed by the shared secret key), the provider that reaches
 * other instances' sessions, the forwarder of upgrades and WebDriver requests, and the membership.
 */
export function openInstances(deps: {
  registry: InstanceRegistry;
  instanceId: string;
  url: string;
  secrets: SecretBox;
  provider: ComposableBrowserProvider;
  /** This instance's own live-view hub, if any. */
  hub: LiveViewHub | undefined;
  reconcileIntervalSec: number;
  logger: Logger;
  /** What instances hold for their sessions (slots, contexts): a lost instance's is let go with its sessions. */
  holdings?: readonly InstanceHoldings[] | undefined;
}): OpenedInstances {
  const { registry, instanceId, provider, hub, logger } = deps;
  const timings = instanceTimings(deps.reconcileIntervalSec);
  const bootId = randomUUID();
  const auth = new InstanceAuth({ signer: deps.secrets.signer('instances'), instanceId });
  const directory = new InstanceDirectory({ registry, instanceId, lostAfterMs: timings.lostAfterMs });
  const client = new InstanceClient({ auth });
  const forwarder = new InstanceForwarder({ directory, auth, logger });
  return {
    provider: new InstanceRoutedProvider({ provider, directory, client }),
    calls: {
      targets: { provider: provider satisfies BrowserProvider, hub, ping: { id: instanceId, bootId } },
      authenticate: authenticateInstanceCall({ auth, directory }),
    },
    liveView: hub && new InstanceRoutedLiveViewHub({ hub, directory, client }),
    forwardUpgrade: async (req, socket, head, params) => {
      const key = sessionKeyOf(params);
      return key !== null && (await forwarder.upgrade(req, socket, head, key)) === 'forwarded';
    },
    forwardPassthrough: async (req, res, params) => {
      const key = sessionKeyOf(params);
      return key !== null && (await forwarder.request(req, res, key)) === 'forwarded';
    },
    forwarder,
    ...{ name: 'instance-forwarder', phase: 'drain', stop: async () => forwarder.close() },
    membership: (endLostInstance) =>
      new InstanceMembership({
        ...{ registry, directory, client, endLostInstance, logger, url: deps.url, bootId },
        holdings: deps.holdings,
        heartbeatMs: timings.heartbeatMs,
      }),
  };
}

/** The session an endpoint's path parameters name, if any. */
export function sessionKeyOf(params: Readonly<Record<string, string>>): SessionKey | null {
  if (params.provider_session_id) return { providerSessionId: params.provider_session_id };
  if (params.session_id) return { sessionId: params.session_id };
  return null;
}

import {
  BrowserSession,
  isTerminalStatus,
  type ProviderSessionSnapshot,
  type SessionSettings,
} from '@browserdeck/domain';
import { BUILT_AT, BUILT_PROJECT_ID, builtId, nextBuiltNumber } from './builderDefaults.ts';

/**
 * What `aSession` may be told, flat: its id, project, provider and creation time (`now`), any of its
 * settings, and any field of the provider's snapshot it starts from (`status`, `instanceId`, …).
 */
export type SessionOverrides = Partial<SessionSettings> &
  Partial<ProviderSessionSnapshot> & { id?: string; projectId?: string; provider?: string; now?: Date };

/**
 * A valid session built through `BrowserSession.create`: a fresh id, `RUNNING` on provider `fake`
 * since `BUILT_AT` (or `now`), expiring 300 s later (a terminal `status` ends it then), with default settings (empty script and env,
 * `us-west-2`, 300 s), in `BUILT_PROJECT_ID`.
 */
export function aSession(overrides: SessionOverrides = {}): BrowserSession {
  const n = nextBuiltNumber();
  const { id = builtId(n), projectId = BUILT_PROJECT_ID, provider = 'fake', now = BUILT_AT } = overrides;
  const { name, script, env, region, timeoutSec, extensionId, contextId, agentId, metadata, keepAlive } =
    overrides;
  const { proxies, proxyBytes } = overrides;
  const { providerSessionId, providerProjectId, status, connectUrl, seleniumRemoteUrl } = overrides;
  const { startedAt, endedAt, expiresAt, instanceId } = overrides;
  const settings: SessionSettings = {
    name: name ?? `Session ${n}`,
    script: script ?? '',
    env: env ?? {},
    region: region ?? 'us-west-2',
    timeoutSec: timeoutSec ?? 300,
    extensionId: extensionId ?? null,
    contextId: contextId ?? null,
    agentId: agentId ?? null,
    ...(metadata === undefined ? {} : { metadata }),
    ...(keepAlive === undefined ? {} : { keepAlive }),
    ...(proxies === undefined ? {} : { proxies }),
  };
  const snapshot: ProviderSessionSnapshot = {
    providerSessionId: providerSessionId ?? `${provider}-${n}`,
    providerProjectId: providerProjectId ?? `${provider}-project`,
    status: status ?? 'RUNNING',
    connectUrl: connectUrl ?? `wss://${provider}.invalid/connect/${n}`,
    seleniumRemoteUrl: seleniumRemoteUrl ?? null,
    startedAt: startedAt ?? now,
    // A session built in a terminal status ended when it was created, unless told otherwise.
    endedAt: endedAt !== undefined ? endedAt : status && isTerminalStatus(status) ? now : null,
    expiresAt: expiresAt === undefined ? new Date(now.getTime() + 300_000) : expiresAt,
    ...(instanceId === undefined ? {} : { instanceId }),
    ...(proxyBytes === undefined ? {} : { proxyBytes }),
  };
  return BrowserSession.create({ id, projectId, provider, settings, snapshot, now });
}

import type { Agent } from '../agents/Agent.ts';
import { Checks } from '../shared/checks.ts';
import type { SessionSettings } from './BrowserSession.ts';
import { checkSessionMetadata } from './metadataRules.ts';
import type { SessionProxy, SessionViewport } from './sessionOptions.ts';
import { checkSessionProxies } from './sessionProxyRules.ts';
import {
  checkEnv,
  checkProviderIds,
  checkRunSettings,
  checkViewport,
  DEFAULT_TIMEOUT_SEC,
  DEFAULT_VIEWPORT_HEIGHT,
  DEFAULT_VIEWPORT_WIDTH,
  PROVIDER_PROJECT_ID_MAX_LENGTH,
  PROVIDER_REF_MAX_LENGTH,
  SESSION_NAME_MAX_LENGTH,
} from './sessionRules.ts';

/** A session create request: every field optional (http-api.md §5). */
export interface SessionRequest {
  readonly projectId?: string | undefined;
  readonly name?: string | undefined;
  readonly script?: string | undefined;
  readonly env?: Record<string, string> | undefined;
  readonly region?: string | undefined;
  readonly timeoutSec?: number | undefined;
  readonly extensionId?: string | null | undefined;
  readonly contextId?: string | null | undefined;
  /**
   * With a context: save what the browser changes back to it (default true), or open it without
   * saving (false). Not part of http-api.md §5's body; the Browserbase-compatible API sets it.
   */
  readonly contextPersist?: boolean | undefined;
  readonly agentId?: string | null | undefined;
  /**
   * The client's own JSON object for the session (at most `SESSION_METADATA_MAX_BYTES`), stored
   * and filterable: Browserbase's `userMetadata`. Not part of http-api.md §5's body; the
   * Browserbase-compatible API sets it.
   */
  readonly metadata?: Record<string, unknown> | undefined;
  /**
   * False ends the session when its last client disconnects; true (the default, and http-api.md
   * §5's behaviour) keeps it until released or timed out. The Browserbase-compatible API sets it.
   */
  readonly keepAlive?: boolean | undefined;
  /** False: the session is not recorded (SPEC §18); absent: the provider's default. */
  readonly record?: boolean | undefined;
  /**
   * The browser's window and page size: each side an integer from `VIEWPORT_MIN_SIDE` to
   * `VIEWPORT_MAX_SIDE`, a side left out `DEFAULT_VIEWPORT_WIDTH` or `DEFAULT_VIEWPORT_HEIGHT`;
   * absent (or with neither side) for the provider's default. The Browserbase-compatible API sets it.
   */
  readonly viewport?:
    | { readonly width?: number | undefined; readonly height?: number | undefined }
    | null
    | undefined;
  /**
   * Upstream proxies for the session's traffic (http-api.md §5, Browserbase's shapes), checked by
   * `checkSessionProxies`; absent, null or empty: direct. Credentials are secrets: stored sealed,
   * never returned. Agents have none: only the request sets them.
   */
  readonly proxies?: readonly SessionProxy[] | null | undefined;
}

/**
 * The settings a session runs with: request fields over the agent's stored fields over the defaults;
 * `env` is the agent's `envVars` merged with the request's `env`. Validated as a whole.
 */
export function resolveSessionSettings(
  request: SessionRequest,
  agent: Agent | null,
  provider: { regions: readonly string[]; defaultProviderProjectId: string },
  now: Date,
): SessionSettings & {
  providerProjectId: string;
  contextPersist: boolean;
  metadata: Record<string, unknown>;
  keepAlive: boolean | null;
  record: boolean | null;
  viewport: SessionViewport | null;
  proxies: readonly SessionProxy[] | null;
} {
  const pick = <T>(requested: T | undefined, stored: T | undefined, fallback: T): T =>
    requested !== undefined ? requested : stored !== undefined ? stored : fallback;
  const settings = {
    name: (request.name ?? agent?.name ?? `Session ${now.toISOString()}`).trim(),
    script: pick(request.script, agent?.script, ''),
    env: { ...(agent?.envVars ?? {}), ...(request.env ?? {}) },
    region: pick(request.region, agent?.region, provider.regions[0] ?? ''),
    timeoutSec: pick(request.timeoutSec, agent?.timeoutSec, DEFAULT_TIMEOUT_SEC),
    extensionId: pick(request.extensionId, agent?.extensionId, null),
    contextId: pick(request.contextId, agent?.contextId, null),
    agentId: agent?.id ?? null,
    metadata: request.metadata === undefined ? {} : request.metadata,
    contextPersist: request.contextPersist ?? true,
    keepAlive: request.keepAlive ?? null,
    record: request.record ?? null,
    viewport: resolveViewport(request.viewport),
    proxies: request.proxies === undefined || request.proxies?.length === 0 ? null : request.proxies,
    providerProjectId: pick(
      request.projectId,
      agent?.providerProjectId ?? undefined,
      provider.defaultProviderProjectId,
    ),
  };
  const checks = new Checks()
    .length(settings.name, 'name', 1, SESSION_NAME_MAX_LENGTH)
    .text(settings.name, 'name', 'name')
    .length(settings.providerProjectId, 'projectId', 1, PROVIDER_PROJECT_ID_MAX_LENGTH)
    .require((settings.extensionId?.length ?? 0) <= PROVIDER_REF_MAX_LENGTH, 'extensionId', 'too long')
    .require((settings.contextId?.length ?? 0) <= PROVIDER_REF_MAX_LENGTH, 'contextId', 'too long');
  checkProviderIds(checks, settings, 'projectId');
  checkEnv(checks, settings.env, 'env');
  checkSessionMetadata(checks, settings.metadata, 'metadata');
  checkViewport(checks, settings.viewport, 'viewport');
  checkSessionProxies(checks, settings.proxies, 'proxies');
  checkRunSettings(checks, settings, provider.regions).throwIfAny();
  return settings;
}

/** Both sides of a requested viewport (a side left out takes its default); null when none is asked for. */
function resolveViewport(requested: SessionRequest['viewport']): SessionViewport | null {
  if (!requested || (requested.width === undefined && requested.height === undefined)) return null;
  return {
    width: requested.width ?? DEFAULT_VIEWPORT_WIDTH,
    height: requested.height ?? DEFAULT_VIEWPORT_HEIGHT,
  };
}

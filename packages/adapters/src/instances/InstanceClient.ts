import { ProviderError, type ProviderSessionSnapshot, type SessionLogEntry } from '@browserdeck/domain';
import type { LivePage } from '../browsers/live-view/LiveViewHub.ts';
import { INSTANCE_AUTH_HEADER, type InstanceAuth } from './InstanceAuth.ts';
import type { InstanceRecord } from './InstanceRegistry.ts';

/** The internal routes' prefix, under an instance's URL. */
export const INTERNAL_PREFIX = '/internal/v1';

/** How long a call to another instance may take: its own provider call's deadline is longer. */
const CALL_TIMEOUT_MS = 60_000;
/** How long a liveness check waits. */
const PING_TIMEOUT_MS = 1_000;

/** What an instance answers about itself. */
export interface InstancePing {
  readonly id: string;
  readonly bootId: string;
}

/**
 * Calls another instance's internal routes (`serveInstanceCalls`), signed with `InstanceAuth`, over
 * `fetch` (keep-alive connections). A provider error the other instance answered is thrown again
 * here as the same `ProviderError`; an instance that cannot be reached is `provider_unavailable`.
 */
export class InstanceClient {
  private readonly auth: InstanceAuth;

  constructor(deps: { auth: InstanceAuth }) {
    this.auth = deps.auth;
  }

  /** Who answers at `record.url`, or null when nothing answers there in a second. */
  async ping(record: Pick<InstanceRecord, 'id' | 'url'>): Promise<InstancePing | null> {
    try {
      const response = await this.call(record, 'GET', '/instance', undefined, PING_TIMEOUT_MS);
      if (!response.ok) return null;
      const body = (await response.json()) as Partial<InstancePing>;
      return typeof body.id === 'string' && typeof body.bootId === 'string'
        ? { id: body.id, bootId: body.bootId }
        : null;
    } catch {
      return null;
    }
  }

  async get(peer: InstanceRecord, providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const body = await this.provider(peer, 'GET', providerSessionId, '');
    return body === null ? null : toSnapshot(body as WireSnapshot);
  }

  async release(
    peer: InstanceRecord,
    providerSessionId: string,
    providerProjectId?: string,
  ): Promise<ProviderSessionSnapshot | null> {
    const body = await this.provider(peer, 'POST', providerSessionId, '/release', {
      ...(providerProjectId === undefined ? {} : { providerProjectId }),
    });
    return body === null ? null : toSnapshot(body as WireSnapshot);
  }

  async logs(peer: InstanceRecord, providerSessionId: string): Promise<SessionLogEntry[]> {
    return ((await this.provider(peer, 'GET', providerSessionId, '/logs')) ?? []) as SessionLogEntry[];
  }

  /** The tabs the holder's live-view hub sees; null when it cannot reach the session's browser. */
  async pages(peer: InstanceRecord, providerSessionId: string): Promise<LivePage[] | null> {
    return (await this.provider(peer, 'GET', providerSessionId, '/pages')) as LivePage[] | null;
  }

  private async provider(
    peer: InstanceRecord,
    method: string,
    providerSessionId: string,
    suffix: string,
    body?: unknown,
  ): Promise<unknown> {
    const path = `/provider-sessions/${encodeURIComponent(providerSessionId)}${suffix}`;
    let response: Response;
    try {
      response = await this.call(peer, method, path, body, CALL_TIMEOUT_MS);
    } catch (error) {
      throw new ProviderError(
        'provider_unavailable',
        `The instance holding this session's browser (${peer.id}) could not be reached.`,
        { cause: error },
      );
    }
    if (response.status === 404) return null;
    const answer = (await response.json().catch(() => null)) as WireError | unknown;
    if (response.ok) return answer;
    const error = answer as Partial<WireError> | null;
    throw new ProviderError(
      isProviderCode(error?.code) ? error.code : 'provider_error',
      typeof error?.message === 'string'
        ? error.message
        : `The instance holding this session's browser (${peer.id}) answered ${response.status}.`,
      typeof error?.retryAfterSec === 'number' ? { retryAfterSec: error.retryAfterSec } : {},
    );
  }

  private call(
    peer: Pick<InstanceRecord, 'id' | 'url'>,
    method: string,
    path: string,
    body: unknown,
    timeoutMs: number,
  ): Promise<Response> {
    const url = new URL(`${peer.url.replace(/\/+$/, '')}${INTERNAL_PREFIX}${path}`);
    return fetch(url, {
      method,
      headers: {
        [INSTANCE_AUTH_HEADER]: this.auth.sign(method, `${url.pathname}${url.search}`, peer.id),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }
}

/** A provider error as an instance answers it to another. */
export interface WireError {
  code: string;
  message: string;
  retryAfterSec?: number;
}

type WireSnapshot = Omit<ProviderSessionSnapshot, 'startedAt' | 'endedAt' | 'expiresAt'> & {
  startedAt: string;
  endedAt: string | null;
  expiresAt: string | null;
};

function toSnapshot(wire: WireSnapshot): ProviderSessionSnapshot {
  return {
    ...wire,
    startedAt: new Date(wire.startedAt),
    endedAt: wire.endedAt === null ? null : new Date(wire.endedAt),
    expiresAt: wire.expiresAt === null ? null : new Date(wire.expiresAt),
  };
}

const PROVIDER_CODES = [
  'provider_rate_limited',
  'provider_error',
  'provider_unavailable',
  'provider_timeout',
] as const;

function isProviderCode(code: unknown): code is (typeof PROVIDER_CODES)[number] {
  return (PROVIDER_CODES as readonly unknown[]).includes(code);
}

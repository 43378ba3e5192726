import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  DomainError,
  ProviderError,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
  type UploadedSessionFile,
} from '@browserdeck/domain';
import type { LivePage } from '../browsers/live-view/LiveViewHub.ts';
import { INSTANCE_AUTH_HEADER, type InstanceAuth } from './InstanceAuth.ts';
import type { InstanceRecord } from './InstanceRegistry.ts';

/** The internal routes' prefix, under an instance's URL. */
export const INTERNAL_PREFIX = '/internal/v1';

/** How long a call to another instance may take: its own provider call's deadline is longer. */
const CALL_TIMEOUT_MS = 60_000;
/** How long a session file upload to the holder may take (it arrives as the client sends it). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
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

  /**
   * The holder's zip of the session's downloads, streamed from it as it comes; null when it has
   * none (404). Only the answer's start is under the call's deadline, not its streaming.
   */
  async downloads(
    peer: InstanceRecord,
    providerSessionId: string,
  ): Promise<AsyncIterable<Uint8Array> | null> {
    const response = await this.send(
      peer,
      'GET',
      providerSessionId,
      '/downloads',
      undefined,
      CALL_TIMEOUT_MS,
    );
    if (response === null) return null;
    return response.body
      ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
      : Readable.from([]);
  }

  /**
   * Streams a file to the holder, which stores it for its session (its provider's `upload`); null
   * when it no longer knows the session. The name travels in the signed query, the bytes as the
   * body; `payload_too_large` from the holder (its session's disk) is thrown again as itself.
   */
  async upload(
    peer: InstanceRecord,
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    const suffix = `/upload?name=${encodeURIComponent(file.name)}`;
    const body = Readable.from(file.content);
    const response = await this.send(peer, 'POST', providerSessionId, suffix, body, UPLOAD_TIMEOUT_MS);
    return response === null ? null : ((await response.json()) as UploadedSessionFile);
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

  /**
   * A call whose answer is read by the caller (a stream): null on 404, the holder's error thrown
   * again (`ProviderError`, or the `payload_too_large` it answered), an unreachable holder
   * `provider_unavailable`. `body` is streamed as it is read. `timeoutMs` bounds the exchange up to
   * the answer's headers; the answer's body is the caller's to read.
   */
  private async send(
    peer: InstanceRecord,
    method: string,
    providerSessionId: string,
    suffix: string,
    body: Readable | undefined,
    timeoutMs: number,
  ): Promise<Response | null> {
    const url = new URL(
      `${peer.url.replace(/\/+$/, '')}${INTERNAL_PREFIX}/provider-sessions/${encodeURIComponent(providerSessionId)}${suffix}`,
    );
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          [INSTANCE_AUTH_HEADER]: this.auth.sign(method, `${url.pathname}${url.search}`, peer.id),
          ...(body ? { 'content-type': 'application/octet-stream' } : {}),
        },
        ...(body ? { body: body as unknown as ReadableStream, duplex: 'half' } : {}),
        signal: controller.signal,
      } as RequestInit);
    } catch (error) {
      throw new ProviderError(
        'provider_unavailable',
        `The instance holding this session's browser (${peer.id}) could not be reached.`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (response.ok) return response;
    const error = (await response.json().catch(() => null)) as Partial<WireError> | null;
    const message =
      typeof error?.message === 'string'
        ? error.message
        : `The instance holding this session's browser (${peer.id}) answered ${response.status}.`;
    if (error?.code === 'payload_too_large') throw new DomainError('payload_too_large', message);
    throw new ProviderError(
      isProviderCode(error?.code) ? error.code : 'provider_error',
      message,
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

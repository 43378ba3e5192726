import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { DomainError, ProviderError } from '@browserdeck/domain';
import { z } from 'zod';
import { INSTANCE_AUTH_HEADER, type InstanceAuth, type SignedBody } from './InstanceAuth.ts';
import type { InstanceRecord } from './InstanceRegistry.ts';
import { type DownloadCall, INSTANCE_CALLS, type JsonCall, type UploadCall } from './instanceCalls.ts';
import type { PingAnswerSchema } from './instanceWire.ts';

/** How long a call to another instance may take: its own provider call's deadline is longer. */
const CALL_TIMEOUT_MS = 60_000;
/** How long a session file upload to the holder may take (it arrives as the client sends it). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** How long a liveness check waits. */
const PING_TIMEOUT_MS = 1_000;

/** What an instance answers about itself. */
export type InstancePing = z.infer<typeof PingAnswerSchema>;

/** The problem an instance answers a failed call with (RFC 9457; only what is read of it). */
const ProblemAnswerSchema = z.object({ code: z.string(), detail: z.string() });

const PROVIDER_CODES = [
  'provider_rate_limited',
  'provider_error',
  'provider_unavailable',
  'provider_timeout',
] as const;

type Peer = Pick<InstanceRecord, 'id' | 'url'>;
type Input<P, Q> = { params: P; query: Q };

/**
 * Calls another instance's internal routes (`INSTANCE_CALLS`, served as routes of its table), signed
 * with `InstanceAuth`, over `fetch` (keep-alive connections); every JSON answer is parsed with its
 * call's schema. A provider error the other instance answered is thrown again here as the same
 * `ProviderError` (`payload_too_large` as itself); an instance that cannot be reached, or answers
 * something else, is `provider_unavailable` / `provider_error`.
 */
export class InstanceClient {
  private readonly auth: InstanceAuth;

  constructor(deps: { auth: InstanceAuth }) {
    this.auth = deps.auth;
  }

  /** Who answers at `record.url`, or null when nothing answers there in a second. */
  async ping(record: Peer): Promise<InstancePing | null> {
    try {
      return await this.json(record, INSTANCE_CALLS.ping, { params: {}, query: {} }, PING_TIMEOUT_MS);
    } catch {
      return null;
    }
  }

  /** A JSON call's answer, parsed with its schema. */
  async json<P, Q, A>(
    peer: Peer,
    call: JsonCall<P, Q, A>,
    input: Input<P, Q>,
    timeoutMs = CALL_TIMEOUT_MS,
  ): Promise<A> {
    const response = await this.send(peer, call, input, undefined, timeoutMs);
    return this.parse(peer, call.answer, await response.json().catch(() => undefined));
  }

  /**
   * The holder's zip, streamed from it as it comes; null when it has none (404). Only the answer's
   * start is under the call's deadline, not its streaming.
   */
  async download<P>(peer: Peer, call: DownloadCall<P>, params: P): Promise<AsyncIterable<Uint8Array> | null> {
    const response = await this.send(peer, call, { params, query: {} }, undefined, CALL_TIMEOUT_MS, true);
    if (response.status === 404) return null;
    return response.body
      ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
      : Readable.from([]);
  }

  /** Streams `content` to the holder as the call's body (sealed by its closing tag). */
  async upload<P, Q, A>(
    peer: Peer,
    call: UploadCall<P, Q, A>,
    input: Input<P, Q>,
    content: AsyncIterable<Uint8Array>,
  ): Promise<A> {
    const response = await this.send(peer, call, input, content, UPLOAD_TIMEOUT_MS);
    return this.parse(peer, call.answer, await response.json().catch(() => undefined));
  }

  private async send(
    peer: Peer,
    call: JsonCall<unknown, unknown, unknown> | DownloadCall<unknown> | UploadCall<unknown, unknown, unknown>,
    input: Input<unknown, unknown>,
    content: AsyncIterable<Uint8Array> | undefined,
    timeoutMs: number,
    notFoundIsAnswer = false,
  ): Promise<Response> {
    const url = urlOf(peer, call.path, input);
    const body: SignedBody = content ? 'stream' : 'empty';
    const header = this.auth.sign({
      method: call.method,
      path: `${url.pathname}${url.search}`,
      target: peer.id,
      body,
    });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: call.method,
        headers: {
          [INSTANCE_AUTH_HEADER]: header,
          ...(content ? { 'content-type': 'application/octet-stream' } : {}),
        },
        ...(content
          ? {
              body: Readable.from(this.auth.sealStream(header, content)) as unknown as ReadableStream,
              duplex: 'half',
            }
          : {}),
        signal: controller.signal,
      } as RequestInit);
    } catch (error) {
      throw unreachable(peer, error);
    } finally {
      clearTimeout(timer);
    }
    if (response.ok || (notFoundIsAnswer && response.status === 404)) {
      if (!response.ok) await response.body?.cancel();
      return response;
    }
    throw await answeredError(peer, response);
  }

  private parse<A>(peer: Peer, schema: z.ZodType<A>, body: unknown): A {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw new ProviderError(
      'provider_error',
      `The instance holding this session's browser (${peer.id}) answered something unexpected: ` +
        `${parsed.error.issues[0]?.message ?? 'not JSON'}.`,
    );
  }
}

function urlOf(peer: Peer, template: string, input: Input<unknown, unknown>): URL {
  const params = input.params as Record<string, string>;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const url = new URL(`${peer.url.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(input.query as Record<string, unknown>)) {
    if (typeof value === 'string') url.searchParams.set(name, value);
  }
  return url;
}

function unreachable(peer: Peer, cause: unknown): ProviderError {
  return new ProviderError(
    'provider_unavailable',
    `The instance holding this session's browser (${peer.id}) could not be reached.`,
    { cause },
  );
}

async function answeredError(peer: Peer, response: Response): Promise<Error> {
  const problem = ProblemAnswerSchema.safeParse(await response.json().catch(() => null));
  const message = problem.success
    ? problem.data.detail
    : `The instance holding this session's browser (${peer.id}) answered ${response.status}.`;
  const code = problem.success ? problem.data.code : undefined;
  if (code === 'payload_too_large') return new DomainError('payload_too_large', message);
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ProviderError(
    (PROVIDER_CODES as readonly unknown[]).includes(code)
      ? (code as (typeof PROVIDER_CODES)[number])
      : 'provider_error',
    message,
    Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSec: retryAfter } : {},
  );
}

import type {
  BrowserProvider,
  ProviderCapabilities,
  ProviderError,
  ProviderSessionSnapshot,
} from '@browserdeck/domain';
import { z } from 'zod';
import type { LiveViewHub } from '../browsers/live-view/LiveViewHub.ts';
import {
  fromWireSnapshot,
  LogsAnswerSchema,
  PagesAnswerSchema,
  PingAnswerSchema,
  SnapshotAnswerSchema,
  toWireSnapshot,
  UploadAnswerSchema,
} from './instanceWire.ts';

/** The internal routes' prefix, under an instance's URL. */
export const INTERNAL_PREFIX = '/internal/v1';

/** What an instance serves the others' calls from: its own provider (never the routed one), hub and id. */
export interface InstanceCallTargets {
  readonly provider: BrowserProvider;
  readonly hub: LiveViewHub | undefined;
  readonly ping: z.infer<typeof PingAnswerSchema>;
}

/**
 * How a provider method about a session becomes this call when another live instance holds the
 * session (`InstanceRoutedProvider`): its arguments as the call's input (the session id first), the
 * answer as the method's result, and what the method answers when the holder has gone silent
 * (`run` asks this instance's own provider).
 */
export interface RoutedMethod {
  /** `sessions`, or the name of the capability whose method this is (any: routing is by name). */
  readonly capability: 'sessions' | keyof ProviderCapabilities;
  readonly method: string;
  toInput(args: readonly unknown[]): {
    params: unknown;
    query: unknown;
    content?: AsyncIterable<Uint8Array>;
  };
  fromAnswer(answer: unknown): unknown;
  whenHolderLost(lost: ProviderError, run: () => Promise<unknown>): Promise<unknown>;
}

interface CallBase<P> {
  readonly operationId: string;
  /** The provider method this call carries, when it carries one. */
  readonly routes?: RoutedMethod | undefined;
  readonly summary: string;
  readonly method: 'GET' | 'POST';
  /** The path template, `{name}` for each path parameter. */
  readonly path: string;
  readonly params: z.ZodType<P, Record<string, string>>;
}

/** A call whose arguments travel in the (signed) path and query, answered with JSON. */
export interface JsonCall<P, Q, A> extends CallBase<P> {
  readonly kind: 'json';
  readonly query: z.ZodType<Q, Record<string, string>>;
  readonly answer: z.ZodType<A>;
  serve(targets: InstanceCallTargets, input: { params: P; query: Q }): Promise<A>;
}

/** A call answered with a zip, streamed; none (404) when the holder has nothing for it. */
export interface DownloadCall<P> extends CallBase<P> {
  readonly kind: 'download';
  serve(targets: InstanceCallTargets, input: { params: P }): Promise<AsyncIterable<Uint8Array> | null>;
}

/** A call whose body is a stream (proven by its closing tag), answered with JSON. */
export interface UploadCall<P, Q, A> extends CallBase<P> {
  readonly kind: 'upload';
  readonly query: z.ZodType<Q, Record<string, string>>;
  readonly answer: z.ZodType<A>;
  serve(
    targets: InstanceCallTargets,
    input: { params: P; query: Q; content: AsyncIterable<Uint8Array> },
  ): Promise<A>;
}

/** Any entry of `INSTANCE_CALLS`. */
export type InstanceCall =
  // biome-ignore lint/suspicious/noExplicitAny: a registry of differently typed entries
  JsonCall<any, any, any> | DownloadCall<any> | UploadCall<any, any, any>;

const none = z.object({});
const sessionParams = z.object({ provider_session_id: z.string().min(1).max(256) });
const SESSION_PATH = `${INTERNAL_PREFIX}/provider-sessions/{provider_session_id}`;

/**
 * Every call one instance makes to another (`InstanceClient`), which the HTTP adapter serves as
 * routes of its one table under the `instance` auth kind: the one registry of their paths, argument
 * schemas and answer schemas, so the caller and the served route cannot drift apart.
 */
export const INSTANCE_CALLS = {
  ping: {
    kind: 'json',
    operationId: 'internalPing',
    summary: 'Who answers at this address',
    method: 'GET',
    path: `${INTERNAL_PREFIX}/instance`,
    params: none,
    query: none,
    answer: PingAnswerSchema,
    serve: async ({ ping }) => ping,
  } satisfies JsonCall<object, object, z.infer<typeof PingAnswerSchema>>,
  get: {
    kind: 'json',
    operationId: 'internalGetProviderSession',
    summary: 'A session this instance holds, from its provider',
    method: 'GET',
    path: SESSION_PATH,
    params: sessionParams,
    query: none,
    answer: SnapshotAnswerSchema,
    serve: async ({ provider }, { params }) =>
      snapshotAnswer(await provider.sessions.get(params.provider_session_id)),
    routes: {
      capability: 'sessions',
      method: 'get',
      toInput: ([id]) => ({ params: sessionOf(id), query: {} }),
      fromAnswer: snapshotOf,
      whenHolderLost: async (lost) => {
        throw lost;
      },
    },
  } satisfies JsonCall<z.infer<typeof sessionParams>, object, z.infer<typeof SnapshotAnswerSchema>>,
  release: {
    kind: 'json',
    operationId: 'internalReleaseProviderSession',
    summary: 'Ends a session this instance holds',
    method: 'POST',
    path: `${SESSION_PATH}/release`,
    params: sessionParams,
    query: z.object({ providerProjectId: z.string().max(256).optional() }),
    answer: SnapshotAnswerSchema,
    serve: async ({ provider }, { params, query }) =>
      snapshotAnswer(await provider.sessions.release(params.provider_session_id, query.providerProjectId)),
    routes: {
      capability: 'sessions',
      method: 'release',
      toInput: ([id, projectId]) => ({
        params: sessionOf(id),
        query: typeof projectId === 'string' ? { providerProjectId: projectId } : {},
      }),
      fromAnswer: snapshotOf,
      // A Grid session is freed from any instance; the session is then reported ERROR.
      whenHolderLost: async (lost, run) => {
        const released = (await run()) as ProviderSessionSnapshot | null;
        if (!released) throw lost;
        return { ...released, status: 'ERROR' };
      },
    },
  } satisfies JsonCall<
    z.infer<typeof sessionParams>,
    { providerProjectId?: string | undefined },
    z.infer<typeof SnapshotAnswerSchema>
  >,
  logs: {
    kind: 'json',
    operationId: 'internalProviderSessionLogs',
    summary: 'The log entries of a session this instance holds',
    method: 'GET',
    path: `${SESSION_PATH}/logs`,
    params: sessionParams,
    query: none,
    answer: LogsAnswerSchema,
    serve: async ({ provider }, { params }) => ({
      entries: await provider.sessions.logs(params.provider_session_id),
    }),
    // A silent holder's logs went with it.
    routes: {
      capability: 'sessions',
      method: 'logs',
      toInput: ([id]) => ({ params: sessionOf(id), query: {} }),
      fromAnswer: (answer) => (answer as z.infer<typeof LogsAnswerSchema>).entries,
      whenHolderLost: async () => [],
    },
  } satisfies JsonCall<z.infer<typeof sessionParams>, object, z.infer<typeof LogsAnswerSchema>>,
  pages: {
    kind: 'json',
    operationId: 'internalProviderSessionPages',
    summary: 'The tabs of a session this instance holds',
    method: 'GET',
    path: `${SESSION_PATH}/pages`,
    params: sessionParams,
    query: none,
    answer: PagesAnswerSchema,
    serve: async ({ hub }, { params }) => ({
      pages: (await hub?.pages(params.provider_session_id)) ?? null,
    }),
  } satisfies JsonCall<z.infer<typeof sessionParams>, object, z.infer<typeof PagesAnswerSchema>>,
  downloads: {
    kind: 'download',
    operationId: 'internalProviderSessionDownloads',
    summary: 'The downloads of a session this instance holds, as a zip',
    method: 'GET',
    path: `${SESSION_PATH}/downloads`,
    params: sessionParams,
    serve: async ({ provider }, { params }) =>
      (await provider.capabilities.files?.downloads(params.provider_session_id)) ?? null,
    routes: {
      capability: 'files',
      method: 'downloads',
      toInput: ([id]) => ({ params: sessionOf(id), query: {} }),
      fromAnswer: (answer) => answer,
      // An ended session's downloads outlive their holder where the provider shares them (a blob store).
      whenHolderLost: async (lost, here) => {
        const shared = await here();
        if (shared) return shared;
        throw lost;
      },
    },
  } satisfies DownloadCall<z.infer<typeof sessionParams>>,
  upload: {
    kind: 'upload',
    operationId: 'internalUploadProviderSessionFile',
    summary: 'Stores a file for a session this instance holds',
    method: 'POST',
    path: `${SESSION_PATH}/upload`,
    params: sessionParams,
    // The caller's use case checked the name and counts the bytes against the upload limit.
    query: z.object({ name: z.string().min(1).max(1024) }),
    answer: UploadAnswerSchema,
    serve: async ({ provider }, { params, query, content }) => ({
      file:
        (await provider.capabilities.files?.upload(params.provider_session_id, {
          name: query.name,
          content,
        })) ?? null,
    }),
    routes: {
      capability: 'files',
      method: 'upload',
      toInput: ([id, file]) => {
        const { name, content } = file as { name: string; content: AsyncIterable<Uint8Array> };
        return { params: sessionOf(id), query: { name }, content };
      },
      fromAnswer: (answer) => (answer as z.infer<typeof UploadAnswerSchema>).file,
      whenHolderLost: async (lost) => {
        throw lost;
      },
    },
  } satisfies UploadCall<z.infer<typeof sessionParams>, { name: string }, z.infer<typeof UploadAnswerSchema>>,
} as const;

function sessionOf(id: unknown): z.infer<typeof sessionParams> {
  return { provider_session_id: String(id) };
}

function snapshotOf(answer: unknown): ProviderSessionSnapshot | null {
  const { snapshot } = answer as z.infer<typeof SnapshotAnswerSchema>;
  return snapshot && fromWireSnapshot(snapshot);
}

function snapshotAnswer(
  snapshot: Parameters<typeof toWireSnapshot>[0] | null,
): z.infer<typeof SnapshotAnswerSchema> {
  return { snapshot: snapshot && toWireSnapshot(snapshot) };
}

import type { Caller, ErrorCode } from '@browserdeck/domain';
import type { z } from 'zod';

/** The methods routes are registered for (`HEAD` follows `GET` automatically). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** One of `HTTP_METHODS`. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What a route handler receives: validated input and who is calling. */
export interface RouteRequest<P, Q, B, A extends boolean, H = undefined> {
  params: P;
  query: Q;
  body: B;
  /** The request headers the route declares, validated (`undefined` when it declares none). */
  headers: H;
  /**
   * The authenticated caller, a user or a project API key; present exactly when the route has
   * `auth: true`.
   */
  caller: A extends true ? Caller : undefined;
  /** The client's address (`ctx.ip`; proxy headers only when `trustProxy`). */
  clientAddress: string;
  requestId: string;
  /** The path prefix the app is mounted under (`''` at the root), for links the answer carries. */
  mountPrefix: string;
}

/** What a route handler answers. `body` is sent as JSON unless `contentType` says otherwise. */
export interface RouteResult {
  status: number;
  body?: unknown;
  contentType?: string;
  /** Extra response headers, e.g. `X-Sync-Error`. */
  headers?: Record<string, string>;
}

/** One documented success response. */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to `application/json`. */
  contentType?: string;
  /** Response headers this answer may carry, by name, for the OpenAPI document. */
  headers?: Record<string, { description: string }>;
}

/**
 * One HTTP operation: its address, its zod input schemas (which both validate requests and generate
 * the OpenAPI document), its documented responses and the use-case call that serves it.
 */
export interface RouteDefinition<
  P = unknown,
  Q = unknown,
  B = unknown,
  A extends boolean = boolean,
  H = unknown,
> {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/projects/{project_id}:archive`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Whether a bearer access token or a project API key is required. */
  auth: A;
  params?: z.ZodType<P>;
  /**
   * Path parameters that take one of a fixed set of values (compared case-insensitively). A request
   * with any other value is answered like an unknown route (404), before authentication.
   */
  pathValues?: Readonly<Record<string, readonly string[]>>;
  query?: z.ZodType<Q>;
  /** Request headers, as a `z.object` keyed by the header's documented name (`Idempotency-Key`). */
  headers?: z.ZodObject & z.ZodType<H>;
  /** The JSON body; a schema that accepts `undefined` makes the body optional. */
  body?: z.ZodType<B>;
  responses: Record<number, ResponseSpec>;
  /**
   * Left out of the OpenAPI document (the Browserbase-compatible API, which Browserbase's own
   * reference documents and whose errors are not problems).
   */
  undocumented?: boolean;
  /** How this route's errors are answered; RFC 9457 problems by default. */
  errorFormat?: 'problem' | 'browserbase';
  /**
   * Chooses between two routes of one method and path by the request's headers: this route serves
   * the request only when it answers true (e.g. a Browserbase client's `X-BB-API-Key`).
   */
  when?: (headers: Readonly<Record<string, string | string[] | undefined>>) => boolean;
  /** Error codes this operation answers beyond the ones implied by its input, auth and body. */
  errors?: readonly ErrorCode[];
  handle(request: RouteRequest<P, Q, B, A, H>): Promise<RouteResult>;
}

/** A route with its input types erased, as the route table holds it. */
export type AnyRoute = RouteDefinition<unknown, unknown, unknown, boolean, unknown>;

/** Declares a route with its input types inferred from its schemas. */
export function defineRoute<
  P = undefined,
  Q = undefined,
  B = undefined,
  A extends boolean = boolean,
  H = undefined,
>(route: RouteDefinition<P, Q, B, A, H>): AnyRoute {
  return route as unknown as AnyRoute;
}

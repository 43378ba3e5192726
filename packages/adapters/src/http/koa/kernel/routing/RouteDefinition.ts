import type { ApiKeyCaller, Caller, ProjectRole, UserCaller } from '@browserdeck/domain';
import type { z } from 'zod';
import type { PassthroughOutcome, PassthroughRequest } from '../../../../shared/PassthroughEndpoint.ts';
import type { UpgradeOutcome, UpgradeRequest } from '../../../../shared/UpgradeEndpoint.ts';
import type { ErrorWriter } from '../errors/ErrorWriter.ts';
import type { ProblemCode } from '../errors/problemCodes.ts';
import type { PublicUrls } from '../proxy/PublicUrls.ts';
import type { InstanceCaller } from './InstanceCaller.ts';
import type { AnyRouteResult, ResponseSpec, ResponseSpecs, RouteResult } from './RouteResult.ts';

export type { AuthenticateInstance, InstanceCaller } from './InstanceCaller.ts';
export type { AnyRouteResult, ResponseSpec, ResponseSpecs, RouteResult } from './RouteResult.ts';

/** The methods routes are registered for (`HEAD` follows `GET` automatically). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** One of `HTTP_METHODS`. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route (http-api.md §3, §12): anyone (`none`), a user's access token only (`user`; a
 * project API key is 403 `forbidden_for_api_key`), a user or a project API key (`userOrKey`: the work
 * inside a project), or a project API key only (`key`: the Browserbase-compatible API; a user's token
 * is 401), or another instance of the deployment (`instance`: the calls between instances, signed
 * with the shared secret key; `InstanceCaller`). The router enforces it and the OpenAPI document
 * states it, from this one declaration.
 */
export const ROUTE_AUTHS = ['none', 'user', 'userOrKey', 'key', 'instance'] as const;
/** One of `ROUTE_AUTHS`. */
export type RouteAuth = (typeof ROUTE_AUTHS)[number];

/** The caller a route with `auth: A` gets. */
export type CallerOf<A extends RouteAuth> = A extends 'user'
  ? UserCaller
  : A extends 'key'
    ? ApiKeyCaller
    : A extends 'userOrKey'
      ? Caller
      : A extends 'instance'
        ? InstanceCaller
        : undefined;

/** What a route handler receives: validated input and who is calling. */
export interface RouteRequest<P, Q, B, A extends RouteAuth, H = undefined> {
  params: P;
  query: Q;
  body: B;
  /** The request headers the route declares, validated (`undefined` when it declares none). */
  headers: H;
  /** The authenticated caller, of the kind the route's `auth` admits; `undefined` for `none`. */
  caller: CallerOf<A>;
  /** The client's address (`ctx.ip`: from `X-Forwarded-For` only through hops `trustProxy` trusts). */
  clientAddress: string;
  /**
   * Where this client reaches the API: the public URL, or its scheme and host as a trusted proxy
   * forwards them (`publicUrlFromProxy`). Hand out URLs through `publicUrls.handOut`.
   */
  publicUrls: PublicUrls;
  requestId: string;
  /** The path prefix the app is mounted under (`''` at the root), for links the answer carries. */
  mountPrefix: string;
}

/** What every entry of the route table declares: its address, input schemas, responses and auth. */
export interface RouteMetadata<
  P = unknown,
  Q = unknown,
  B = unknown,
  A extends RouteAuth = RouteAuth,
  H = unknown,
  R extends ResponseSpecs = ResponseSpecs,
> {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/projects/{project_id}:archive`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Who may call it; read by the router (enforcement) and by the OpenAPI builder (`security`). */
  auth: A;
  /**
   * The least project role it needs (SPEC §17), for a route in one project: the use case behind it
   * enforces it (a lower role is 403 `forbidden_for_role`), the OpenAPI document states it
   * (`x-browserdeck-role`), and the role matrix test holds the two to each other.
   */
  role?: ProjectRole;
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
  /** The documented answers by status; a handler may answer only these, with these bodies. */
  responses: R;
  /**
   * Left out of the OpenAPI document (the Browserbase-compatible API, which Browserbase's own
   * reference documents and whose errors are not problems).
   */
  undocumented?: boolean;
  /** How this route's errors are answered; RFC 9457 problems (`writeProblem`) by default. */
  writeError?: ErrorWriter;
  /**
   * Chooses between two routes of one method and path by the request's headers: this route serves
   * the request only when it answers true (e.g. a Browserbase client's `X-BB-API-Key`).
   */
  when?: (headers: Readonly<Record<string, string | string[] | undefined>>) => boolean;
  /**
   * Error codes this operation answers beyond the ones its input, auth and body imply
   * (`documentedErrorCodes`); the OpenAPI document lists them, and in tests answering any other
   * code is a 500 naming the route and the code (`HttpSettings.validateResponses`).
   */
  errors?: readonly ProblemCode[];
  /**
   * How much longer than the app's request cut-off this operation may take: a long poll that holds
   * its answer (a run's `wait`) is cut off only this many milliseconds after the others would be.
   */
  extraTimeMs?: number;
}

/**
 * One HTTP operation: its metadata (which both validates requests and generates the OpenAPI
 * document) and the use-case call that serves it, whose answer is typed from `responses`.
 */
export interface RouteDefinition<
  P = unknown,
  Q = unknown,
  B = unknown,
  A extends RouteAuth = RouteAuth,
  H = unknown,
  S extends number = number,
  R extends Readonly<Record<S, ResponseSpec>> = ResponseSpecs,
> extends RouteMetadata<P, Q, B, A, H, R & Readonly<Record<S, ResponseSpec>>> {
  // The statuses are a type parameter of their own (the keys of `responses`): a handler's literal
  // `status: 201` then keeps its literal type, which a type computed from `R` alone would widen.
  handle(request: RouteRequest<P, Q, B, A, H>): Promise<RouteResult<S, R>>;
  upgrade?: never;
  passthrough?: never;
}

/**
 * A WebSocket endpoint in the route table (`GET` with `upgrade`): matched like every route, served
 * from the HTTP server's `upgrade` event, never by the Koa app (a plain `GET` there is a 404). It
 * checks its own credential (a token or signing key in the query) and is left out of the document.
 */
export interface UpgradeRoute
  extends RouteMetadata<unknown, unknown, unknown, 'none', unknown, ResponseSpecs> {
  method: 'GET';
  undocumented: true;
  upgrade(request: UpgradeRequest): UpgradeOutcome;
  handle?: never;
  passthrough?: never;
}

/**
 * A passthrough endpoint in the route table: every request (any method) whose path is `basePath` or
 * below it is handed, raw (no body parser, no request cut-off: a WebDriver command may take
 * minutes), to `passthrough` by `servePassthroughs`, never to the router. It checks its own
 * credential (a signing key in the path). The document shows it as one operation at `path`.
 */
export interface PassthroughRoute
  extends RouteMetadata<unknown, unknown, unknown, 'none', unknown, ResponseSpecs> {
  /** The path template matched as a prefix (`path` is the documented operation below it). */
  basePath: string;
  /** Path parameters that are credentials: the request log shows `{name}` in their place. */
  secretParams: readonly string[];
  passthrough(request: PassthroughRequest): PassthroughOutcome | Promise<PassthroughOutcome>;
  handle?: never;
  upgrade?: never;
}

/** An HTTP route with its types erased, as the route table holds it. */
export type HttpRoute = RouteMetadata & {
  handle(request: RouteRequest<unknown, unknown, unknown, RouteAuth, unknown>): Promise<AnyRouteResult>;
  upgrade?: never;
  passthrough?: never;
};

/** An entry of the route table: an HTTP route, an upgrade route or a passthrough route. */
export type AnyRoute = HttpRoute | UpgradeRoute | PassthroughRoute;

/** Declares a route with its input types inferred from its schemas and its answers from `responses`. */
export function defineRoute<
  P = undefined,
  Q = undefined,
  B = undefined,
  A extends RouteAuth = RouteAuth,
  H = undefined,
  S extends number = never,
  R extends Readonly<Record<S, ResponseSpec>> = Readonly<Record<S, ResponseSpec>>,
>(route: RouteDefinition<P, Q, B, A, H, S, R>): HttpRoute {
  // The handler's types are checked here, against the route's own schemas; the table erases them.
  return route as unknown as HttpRoute;
}

/** Declares an upgrade route of the table. */
export function defineUpgradeRoute(
  route: Omit<UpgradeRoute, 'method' | 'undocumented' | 'responses' | 'auth'>,
): UpgradeRoute {
  return { method: 'GET', undocumented: true, auth: 'none', responses: {}, ...route };
}

/** Whether a table entry is an upgrade route. */
export function isUpgradeRoute(route: AnyRoute): route is UpgradeRoute {
  return typeof route.upgrade === 'function';
}

/** Whether a table entry is a passthrough route. */
export function isPassthroughRoute(route: AnyRoute): route is PassthroughRoute {
  return typeof route.passthrough === 'function';
}

import type { z } from 'zod';

/** One documented success response. */
export interface ResponseSpec {
  description: string;
  /** The JSON body's schema: a handler's `body` for this status is typed from it (`z.input`). */
  schema?: z.ZodType;
  /** Defaults to `application/json`. */
  contentType?: string;
  /** Response headers this answer may carry, by name, for the OpenAPI document. */
  headers?: Record<string, { description: string }>;
}

/** A route's documented responses, by status. */
export type ResponseSpecs = Readonly<Record<number, ResponseSpec>>;

/** What every answer may carry besides its status and body. */
interface ResultBase<S extends number> {
  status: S;
  /** Sends `body` as it is with this media type instead of as JSON (HTML, text, files). */
  contentType?: string;
  /** Extra response headers, e.g. `X-Sync-Error`. */
  headers?: Record<string, string>;
}

/**
 * The body for a declared response: with a JSON schema, one the schema accepts (`z.input`: what the
 * wire carries, what `validateResponses` parses and what the OpenAPI document shows); without one (no
 * body, HTML, text, a file or a stream), any body.
 */
type BodyOf<Spec> = Spec extends { schema: infer Schema extends z.ZodType }
  ? { body: z.input<Schema> }
  : { body?: unknown };

/**
 * What a route handler answers: one of its declared statuses `S` (the keys of its `responses` `R`),
 * with the body that status's schema types. A status the route does not declare is a type error.
 * `body` is sent as JSON unless `contentType` says otherwise.
 */
export type RouteResult<S extends number, R extends Readonly<Record<S, ResponseSpec>>> = {
  [K in S]: ResultBase<K> & BodyOf<R[K]>;
}[S];

/** Any route's answer, as the router handles it once the route's types are erased. */
export type AnyRouteResult = ResultBase<number> & { body?: unknown };

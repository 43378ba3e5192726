import type { Router, RouterMiddleware } from '@koa/router';

/** A route of the router whose path template matches a request path. */
export interface RouteMatch {
  /** The route's name: its operation id. */
  name: string;
  /** The methods it answers (`HEAD` comes with `GET`). */
  methods: readonly string[];
  /** Its @koa/router path, e.g. `/v1/projects/:project_id` (the metrics' `route` label). */
  path: string;
  /** Its path parameters as the URL spells them, still percent-encoded. */
  rawParams: Readonly<Record<string, string>>;
  /** The same, decoded (as `ctx.params` gets them). */
  params: Record<string, string>;
  /** Its handler. */
  handle: RouterMiddleware;
}

/**
 * Every route of `router` whose path matches `path`, in registration order, with its parameters.
 *
 * This is the one place that reads @koa/router past its documented API, and only properties its type
 * declarations make public (`router.stack`; a layer's `regexp`, `paramNames`, `methods`, `name`,
 * `path` and `stack`), none of the methods they mark private (`match`, `captures`, `params`). Its
 * documented dispatch (`routes()` with `allowedMethods()`) cannot refuse a match, and path-to-regexp 8
 * has no parameter patterns, so it can neither keep a colon out of a parameter nor limit `{provider}`
 * to its values (docs/adr/0007-maintained-http-parts.md). `resolveRoute.int.test.ts` pins the matching.
 */
export function matchRoutes(router: Router, path: string): RouteMatch[] {
  const matches: RouteMatch[] = [];
  for (const layer of router.stack) {
    if (layer.methods.length === 0) continue;
    const captures = layer.regexp.exec(path);
    if (!captures) continue;
    const rawParams: Record<string, string> = {};
    const params: Record<string, string> = {};
    layer.paramNames.forEach((key, index) => {
      const value = captures[index + 1];
      if (value === undefined || value === '') return;
      rawParams[key.name] = value;
      params[key.name] = safeDecode(value);
    });
    const [handle] = layer.stack;
    if (!handle) throw new Error(`The route ${layer.name} has no handler.`);
    matches.push({
      name: layer.name ?? '',
      methods: layer.methods,
      path: String(layer.path),
      rawParams,
      params,
      handle: handle as RouterMiddleware,
    });
  }
  return matches;
}

/** As the router decodes a parameter: a malformed escape leaves it as it is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

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
 * A layer whose literal path prefix the path lacks is skipped without running its regexp: the table
 * has dozens of routes and this runs on every request (docs/benchmarks.md, issue 24).
 */
export function matchRoutes(router: Router, path: string): RouteMatch[] {
  const matches: RouteMatch[] = [];
  // The layers match regardless of case (the router default): compare the prefixes in lower case.
  const lowerPath = path.toLowerCase();
  const slashes = slashCount(path);
  for (const { layer, prefix, depth } of candidatesOf(router)) {
    // A literal prefix the path lacks, or another number of segments, rules the layer out without
    // running its regexp.
    if ((depth !== undefined && depth !== slashes) || !lowerPath.startsWith(prefix)) continue;
    const captures = layer.regexp.exec(path);
    if (!captures) continue;
    const rawParams: Record<string, string> = {};
    const params: Record<string, string> = {};
    const { paramNames } = layer;
    for (let index = 0; index < paramNames.length; index++) {
      const value = captures[index + 1];
      if (value === undefined || value === '') continue;
      const name = paramNames[index]?.name;
      if (name === undefined) continue;
      rawParams[name] = value;
      params[name] = safeDecode(value);
    }
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

type Layer = Router['stack'][number];

/**
 * A route layer with the literal start of its path (lower case), which every match begins with, and
 * its number of segments (a parameter never spans a `/`), unknown for a wildcard or RegExp path.
 */
interface Candidate {
  layer: Layer;
  prefix: string;
  depth: number | undefined;
}

const candidates = new WeakMap<Router, { size: number; list: Candidate[] }>();

/** The router's route layers with their literal prefixes, worked out once (again if routes were added). */
function candidatesOf(router: Router): Candidate[] {
  let known = candidates.get(router);
  if (!known || known.size !== router.stack.length) {
    const list = router.stack
      .filter((layer) => layer.methods.length > 0)
      .map((layer) => ({ layer, prefix: literalPrefix(layer.path), depth: depthOf(layer.path) }));
    known = { size: router.stack.length, list };
    candidates.set(router, known);
  }
  return known.list;
}

/** The path's characters before its first parameter, wildcard, group or escape; none for a RegExp path. */
function literalPrefix(path: unknown): string {
  if (typeof path !== 'string') return '';
  const end = path.search(/[:*{}()\\?+[\]]/);
  return (end === -1 ? path : path.slice(0, end)).toLowerCase();
}

/** How many segments every path the template matches has; undefined when a wildcard may span several. */
function depthOf(path: unknown): number | undefined {
  if (typeof path !== 'string' || /[*(){}]/.test(path)) return undefined;
  return slashCount(path);
}

/** The `/`s of a path, not counting a trailing one (the router matches with or without it). */
function slashCount(path: string): number {
  let count = 0;
  for (let index = 0; index < path.length; index++) if (path.charCodeAt(index) === 47) count++;
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? count - 1 : count;
}

/** As the router decodes a parameter: a malformed escape leaves it as it is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

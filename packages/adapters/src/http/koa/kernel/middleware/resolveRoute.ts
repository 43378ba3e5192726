import type { Router, RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { httpState } from '../../HttpState.ts';
import type { ErrorDialect } from '../errors/ErrorWriter.ts';
import { httpError } from '../errors/toDomainError.ts';
import { matchRoutes, type RouteMatch } from '../routing/matchRoutes.ts';
import { type AnyRoute, isUpgradeRoute } from '../routing/RouteDefinition.ts';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Decides which route serves the request and runs its handler: 404 `not_found` when no route
 * has this path, 405 `method_not_allowed` with `Allow` when routes have it but not for this method,
 * 204 with `Allow` for `OPTIONS`. A path parameter never holds a colon, so `/projects/{id}:archive`
 * is never mistaken for `/projects/{id}` with the id `…:archive`; a parameter limited to fixed values
 * (`pathValues`, e.g. the `{provider}` segment) with any other value does not match either. Upgrade
 * routes are not served here (a plain request for one is a 404). Errors are answered by the chosen
 * route's `writeError`; before a route is chosen, by the writer of the first `dialects` entry whose
 * paths the request's is one of (e.g. the Browserbase-compatible API's 404s and 405s).
 */
export function resolveRoute(
  router: Router,
  routes: readonly AnyRoute[] = [],
  dialects: readonly ErrorDialect[] = [],
): Middleware & { router: Router } {
  const byName = new Map(routes.map((route) => [route.operationId, route]));
  const accepts = (match: RouteMatch): boolean => {
    const route = byName.get(match.name);
    if (route && isUpgradeRoute(route)) return false;
    if (Object.values(match.rawParams).some((value) => value.includes(':'))) return false;
    const allowed = route?.pathValues;
    if (!allowed) return true;
    return Object.entries(allowed).every(([name, values]) =>
      values.some((value) => value.toLowerCase() === match.params[name]?.toLowerCase()),
    );
  };
  const middleware: Middleware = async (ctx, next) => {
    const path = ctx.path;
    const dialect = dialects.find((candidate) => candidate.matches(path));
    if (dialect) httpState(ctx).writeError = dialect.writeError;
    const candidates = matchRoutes(router, path)
      .filter(accepts)
      .filter((match) => byName.get(match.name)?.when?.(ctx.headers) ?? true);
    if (candidates.length === 0) throw httpError('not_found', `There is no route ${ctx.method} ${path}.`);
    // A route chosen by the request's headers (`when`) goes before the plain route of the same path.
    const forMethod = candidates.filter((match) => match.methods.includes(ctx.method));
    const chosen = forMethod.find((match) => byName.get(match.name)?.when) ?? forMethod[0];
    if (!chosen) {
      const methods = new Set(candidates.flatMap((match) => match.methods));
      const allow = METHOD_ORDER.filter((m) => methods.has(m)).join(', ');
      ctx.set('Allow', allow);
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
      throw httpError('method_not_allowed', `${ctx.method} is not allowed on ${path}; allowed: ${allow}.`);
    }
    httpState(ctx).routePath = chosen.path;
    httpState(ctx).route = byName.get(chosen.name);
    httpState(ctx).writeError = byName.get(chosen.name)?.writeError;
    httpState(ctx).extraTimeMs = byName.get(chosen.name)?.extraTimeMs;
    const routed = ctx as RouterContext;
    routed.params = chosen.params;
    // Its handler straight away: the router would match the path a second time.
    await chosen.handle(routed, next);
  };
  // Like @koa/router's own middleware, it names the router it serves (tools list routes from it).
  return Object.assign(middleware, { router });
}

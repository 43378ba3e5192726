import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { matchPathTemplate } from '../../../../shared/matchPathTemplate.ts';
import { httpState } from '../../HttpState.ts';
import { httpError } from '../errors/toDomainError.ts';
import { mountPrefix } from './mountPrefix.ts';
import { type AnyRoute, isPassthroughRoute, type PassthroughRoute } from './RouteDefinition.ts';

/**
 * Carries a passthrough request about one session to the server instance that holds its browser,
 * when another one does: resolves true when it took the request (it answers it), false to leave it
 * to this instance. `params` are the matched route's (`provider_session_id` names the session).
 */
export type PassthroughForwarding = (
  req: IncomingMessage,
  res: ServerResponse,
  params: Readonly<Record<string, string>>,
) => Promise<boolean>;

/**
 * Serves the passthrough routes of a route table, ahead of the request cut-off and the router: a
 * request whose path is a route's `basePath` or below it is handed to the route raw (Koa writes no
 * answer), and the middleware resolves once the route's answer is finished, so the request is logged
 * and counted with its status. A refusal is answered as an error in the route's dialect
 * (`writeError`). With `forwarding`, a matched request is first offered to it (another instance may
 * hold the session). Any other request goes on down the chain.
 */
export function servePassthroughs(
  table: readonly AnyRoute[],
  forwarding?: PassthroughForwarding,
): Middleware {
  const routes = table.filter(isPassthroughRoute);
  return async (ctx, next) => {
    const match = routes.length === 0 ? null : matchPassthrough(routes, ctx.path);
    if (!match) return next();
    const { route, params, rest } = match;
    const state = httpState(ctx);
    state.routePath = route.path;
    state.route = route;
    state.writeError = route.writeError;
    state.logPath = redactedPath(route, params, rest);
    if (forwarding && (await forwarding(ctx.req, ctx.res, params))) {
      ctx.respond = false;
      await finished(ctx.res);
      return;
    }
    const outcome = await route.passthrough({
      req: ctx.req,
      res: ctx.res,
      params,
      subpath: rest,
      mountPrefix: mountPrefix(ctx),
    });
    if (outcome !== true) throw httpError(outcome.code, outcome.detail);
    ctx.respond = false;
    await finished(ctx.res);
  };
}

/** The first route whose base the path is, or is below, with its parameters and the rest of the path. */
function matchPassthrough(
  routes: readonly PassthroughRoute[],
  path: string,
): { route: PassthroughRoute; params: Record<string, string>; rest: string } | null {
  for (const route of routes) {
    const match = matchPathTemplate(route.basePath, path, true);
    if (match) return { route, params: match.params, rest: match.rest };
  }
  return null;
}

/** The request's path for the log: the base with its credentials shown as `{name}`, then the rest. */
function redactedPath(route: PassthroughRoute, params: Record<string, string>, rest: string): string {
  const base = route.basePath.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    route.secretParams.includes(name) ? whole : encodeURIComponent(params[name] ?? ''),
  );
  return `${base}${rest}`;
}

/** Resolves once the response is written out, or its connection gone. */
function finished(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
}

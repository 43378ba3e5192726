import { AuthError, type Authenticate, withOrigin } from '@browserdeck/domain';
import { Router, type RouterMiddleware } from '@koa/router';
import { httpState } from '../../HttpState.ts';
import { DEFAULT_PUBLIC_URL, publicUrlsFor } from '../proxy/PublicUrls.ts';
import { MultipartFile, readMultipartFile } from '../readMultipartFile.ts';
import { authenticateRequest } from './authenticateRequest.ts';
import { authorizeRoute } from './authorizeRoute.ts';
import { fileBodySpec } from './fileBody.ts';
import { mountPrefix } from './mountPrefix.ts';
import { parseJsonBody } from './parseJsonBody.ts';
import { parseRequest } from './parseRequest.ts';
import {
  type AnyRoute,
  type AuthenticateInstance,
  type HttpMethod,
  type HttpRoute,
  type InstanceCaller,
  isPassthroughRoute,
  isUpgradeRoute,
} from './RouteDefinition.ts';
import { toKoaPath } from './toKoaPath.ts';
import { validateResponse } from './validateResponse.ts';

/** For a router used without `forwardedRequest`: the default public URL, URLs handed out as they are. */
const NO_FORWARDED_URLS = publicUrlsFor(DEFAULT_PUBLIC_URL);

/** What the route handlers need beyond the routes themselves. */
export interface BuildRouterDeps {
  authenticate: Pick<Authenticate, 'execute'>;
  /** Checks the calls of `instance` routes; without it they are all 401 `unauthorized`. */
  authenticateInstance?: AuthenticateInstance | undefined;
  /** Check every answer against its route's declared responses (`HttpSettings.validateResponses`). */
  validateResponses?: boolean | undefined;
}

/**
 * Registers every HTTP route of the table on one router; each layer is named after its operation id.
 * The router only matches: `resolveRoute` chooses the layer and runs its handler. Upgrade routes
 * are served from the server's `upgrade` event (`upgradeHandler`), passthrough routes by
 * `servePassthroughs`, not here.
 */
export function buildRouter(routes: readonly AnyRoute[], deps: BuildRouterDeps): Router {
  const router = new Router();
  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.operationId)) throw new Error(`Duplicate operationId ${route.operationId}`);
    seen.add(route.operationId);
    if (isUpgradeRoute(route) || isPassthroughRoute(route)) continue;
    REGISTER[route.method](router, route.operationId, toKoaPath(route.path), routeHandler(route, deps));
  }
  return router;
}

type Register = (router: Router, name: string, path: string, handler: RouterMiddleware) => void;

/** The router's named-route method for each HTTP method. */
const REGISTER: Record<HttpMethod, Register> = {
  GET: (router, name, path, handler) => router.get(name, path, handler),
  POST: (router, name, path, handler) => router.post(name, path, handler),
  PUT: (router, name, path, handler) => router.put(name, path, handler),
  PATCH: (router, name, path, handler) => router.patch(name, path, handler),
  DELETE: (router, name, path, handler) => router.delete(name, path, handler),
};

/**
 * Authenticate and hold the caller to the route's `auth` → read the body → validate with zod → call
 * the use case → (in tests) check the answer against the contract → write the result.
 */
function routeHandler(route: HttpRoute, deps: BuildRouterDeps): RouterMiddleware {
  return async (ctx) => {
    const state = httpState(ctx);
    const caller =
      route.auth === 'none'
        ? undefined
        : route.auth === 'instance'
          ? await authenticateInstance(ctx, deps.authenticateInstance)
          : withOrigin(authorizeRoute(await authenticateRequest(ctx, deps.authenticate), route.auth), {
              requestId: state.requestId,
              ip: ctx.ip,
            });
    const file = fileBodySpec(route.body);
    const body = !route.body
      ? undefined
      : file
        ? await readMultipartFile(ctx, file)
        : await parseJsonBody(ctx);
    let result: Awaited<ReturnType<HttpRoute['handle']>>;
    try {
      const headers = route.headers ? declaredHeaders(route.headers, ctx.headers) : undefined;
      const input = parseRequest(route, { params: ctx.params, query: ctx.query, body, headers });
      result = await route.handle({
        ...input,
        caller,
        clientAddress: ctx.ip,
        publicUrls: state.publicUrls ?? NO_FORWARDED_URLS,
        requestId: state.requestId,
        mountPrefix: mountPrefix(ctx),
      });
    } finally {
      // An upload the handler did not read (it failed first) is read and dropped: its answer gets through.
      if (body instanceof MultipartFile) body.discard();
    }
    if (state.timedOut) return;
    if (deps.validateResponses) validateResponse(route, result);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = result.status;
    for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
    if (result.body !== undefined) ctx.body = result.body;
    if (result.contentType) ctx.type = result.contentType;
  };
}

/** The request's values of the headers a route declares, keyed by their documented names. */
function declaredHeaders(
  schema: NonNullable<AnyRoute['headers']>,
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[] | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, headers[name.toLowerCase()]]));
}

/** The caller of an `instance` route, or 401 when this app serves no calls between instances. */
function authenticateInstance(
  request: Parameters<AuthenticateInstance>[0],
  authenticate: AuthenticateInstance | undefined,
): Promise<InstanceCaller> {
  if (!authenticate) throw new AuthError('unauthorized', 'This route is for other Browserdeck instances.');
  return authenticate(request);
}

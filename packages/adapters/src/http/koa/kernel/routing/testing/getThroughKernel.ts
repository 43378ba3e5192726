import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import compose from 'koa-compose';
import { pino } from 'pino';
import { MetricsRegistry } from '../../../../../observability/MetricsRegistry.ts';
import { errorHandler } from '../../middleware/errorHandler.ts';
import { requestContext } from '../../middleware/requestContext.ts';
import { resolveRoute } from '../../middleware/resolveRoute.ts';
import { buildRouter } from '../buildRouter.ts';
import type { AnyRoute } from '../RouteDefinition.ts';

/**
 * Runs one GET through the kernel in process (request context, error handler, router over
 * `routes`, no credentials), with the error and response checks as `checks` sets them; answers the
 * status, the body and the log lines.
 */
export async function getThroughKernel(
  routes: readonly AnyRoute[],
  path: string,
  checks: { validateErrors?: boolean; validateResponses?: boolean },
) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = new Koa();
  const authenticate = { execute: () => Promise.reject(new Error('no credentials in this test')) };
  app.use(requestContext(logger, new MetricsRegistry()));
  app.use(errorHandler({ validateErrors: checks.validateErrors }));
  app.use(
    resolveRoute(buildRouter(routes, { authenticate, validateResponses: checks.validateResponses }), routes),
  );
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = path;
  const ctx = app.createContext(req, new ServerResponse(req));
  await compose(app.middleware)(ctx);
  return { status: ctx.status, body: ctx.body as Record<string, unknown>, lines };
}

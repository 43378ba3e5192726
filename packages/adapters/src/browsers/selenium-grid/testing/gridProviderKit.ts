import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CreateBrowserRequest, SystemClock } from '@browserdeck/domain';
import { browserRequest } from '@browserdeck/testing';
import Koa from 'koa';
import { pino } from 'pino';
import { webdriverRoutes } from '../../../http/koa/api/webdriver/webdriverRoutes.ts';
import { refuseUpgrade } from '../../../http/koa/kernel/errors/refuseUpgrade.ts';
import { errorHandler } from '../../../http/koa/kernel/middleware/errorHandler.ts';
import { requestContext } from '../../../http/koa/kernel/middleware/requestContext.ts';
import { servePassthroughs } from '../../../http/koa/kernel/routing/servePassthroughs.ts';
import { MetricsRegistry } from '../../../observability/MetricsRegistry.ts';
import { matchUpgradeEndpoint } from '../../../shared/matchUpgradeEndpoint.ts';
import { SeleniumGridProvider } from '../SeleniumGridProvider.ts';
import type { SeleniumGridProviderOptions } from '../SeleniumGridProviderOptions.ts';

/** Chromium refuses to run as root without this; a Grid operator would set it in the node's stereotype. */
export const ROOT_CHROME_ARGS: readonly string[] = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

/**
 * A Selenium Grid provider on `gridUrl`, its connect and WebDriver endpoints served by a loopback
 * HTTP server shaped like the service's (the kernel's passthrough middleware with the WebDriver
 * routes; refusals answered as problems), `overrides` over test-friendly options.
 */
export async function startGridProvider(
  gridUrl: string,
  overrides: Partial<SeleniumGridProviderOptions> = {},
): Promise<{ provider: SeleniumGridProvider; publicUrl: string; close(): Promise<void> }> {
  let provider: SeleniumGridProvider | null = null;
  const app = new Koa();
  app.use(requestContext(pino({ level: 'silent' }), new MetricsRegistry()));
  app.use(errorHandler());
  app.use(async (ctx, next) => {
    if (!provider) return;
    await servePassthroughs(webdriverRoutes(provider.capabilities.webdriver?.endpoints ?? []))(ctx, next);
  });
  const server = createServer(app.callback());
  server.on('upgrade', (req, socket, head) => {
    const match = provider && matchUpgradeEndpoint([provider.connectEndpoint], req.url, '');
    if (!match) return void socket.destroy();
    const outcome = match.endpoint.serve({
      req,
      socket,
      head,
      params: match.params,
      query: match.query,
      mountPrefix: '',
    });
    if (outcome !== true) refuseUpgrade(req, socket, outcome.code, outcome.detail);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new SeleniumGridProvider({
    gridUrl,
    publicUrl,
    instanceId: 'grid-test-instance',
    clock: new SystemClock(),
    chromeArgs: ROOT_CHROME_ARGS,
    minTimeoutSec: 1,
    ...overrides,
  });
  await provider.start();
  const started = provider;
  return {
    provider: started,
    publicUrl,
    close: async () => {
      await started.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A create request for the Grid provider (its project and region), `overrides` over them. */
export function gridRequest(overrides: Partial<CreateBrowserRequest> = {}): CreateBrowserRequest {
  return browserRequest({ providerProjectId: 'selenium-grid', region: 'grid', ...overrides });
}

/** The ids of the sessions the Grid runs now (its GraphQL `sessionsInfo`). */
export async function gridSessionIds(gridUrl: string): Promise<string[]> {
  const response = await fetch(new URL('graphql', `${gridUrl.replace(/\/+$/, '')}/`), {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ query: '{ sessionsInfo { sessions { id } } }' }),
  });
  const body = (await response.json()) as { data: { sessionsInfo: { sessions: Array<{ id: string }> } } };
  return body.data.sessionsInfo.sessions.map((s) => s.id);
}

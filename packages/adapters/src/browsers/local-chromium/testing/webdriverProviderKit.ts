import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SystemClock } from '@browserdeck/domain';
import { makeScratchDir } from '@browserdeck/testing/local-chromium';
import Koa from 'koa';
import { pino } from 'pino';
import { isExecutableFile } from '../../../confinement/isolation/findOnPath.ts';
import { webdriverRoutes } from '../../../http/koa/api/webdriver/webdriverRoutes.ts';
import { refuseUpgrade } from '../../../http/koa/kernel/errors/refuseUpgrade.ts';
import { errorHandler } from '../../../http/koa/kernel/middleware/errorHandler.ts';
import { requestContext } from '../../../http/koa/kernel/middleware/requestContext.ts';
import { servePassthroughs } from '../../../http/koa/kernel/routing/servePassthroughs.ts';
import { MetricsRegistry } from '../../../observability/MetricsRegistry.ts';
import { findChromedriver } from '../chromium/findChromedriver.ts';
import { LocalChromiumProvider } from '../LocalChromiumProvider.ts';
import type { LocalChromiumProviderOptions } from '../LocalChromiumProviderOptions.ts';

/** Debian's headless shell, which its chromedriver (`chromium-driver`) pairs with. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** WebDriver tests need Debian's paired build; without it they fail saying what to install. */
export async function requirePairedBuild(): Promise<void> {
  const driver = await findChromedriver().catch(() => null);
  if (!(await isExecutableFile(HEADLESS_SHELL)) || !driver)
    throw new Error(
      'The WebDriver tests need Debian’s headless shell and its chromedriver: ' +
        '`apt-get install chromium-headless-shell chromium-driver`.',
    );
}

/**
 * A local provider behind a loopback HTTP server shaped like the service's: the kernel's
 * passthrough middleware with the WebDriver routes, and the provider's connect upgrades.
 */
export async function startWebDriverProvider(overrides: Partial<LocalChromiumProviderOptions> = {}) {
  const scratch = await makeScratchDir();
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const provider = new LocalChromiumProvider({
    publicUrl: `http://127.0.0.1:${port}`,
    dataDir: scratch.dir,
    tempDir: scratch.dir,
    maxSessions: 3,
    maxSessionsPerOwner: 3,
    warmBrowsers: 0,
    clock: new SystemClock(),
    egress: { allow: ['127.0.0.1/32'] },
    ...overrides,
  });
  const app = new Koa();
  app.use(requestContext(pino({ level: 'silent' }), new MetricsRegistry()));
  app.use(errorHandler());
  app.use(servePassthroughs(webdriverRoutes(provider.capabilities.webdriver?.endpoints ?? [])));
  server.on('request', app.callback());
  server.on('upgrade', (req, socket, head) => {
    const outcome = provider.handleUpgrade(req, socket, head);
    if (outcome === false) socket.destroy();
    else if (outcome !== true) refuseUpgrade(req, socket, outcome.code, outcome.detail);
  });
  await provider.start();
  return {
    provider,
    close: async () => {
      await provider.close();
      await closeServer(server);
      await scratch.remove();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A raw WebDriver request on a session's endpoint: the status and the JSON body. */
export async function callWebDriver(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { value: Record<string, unknown> } };
}

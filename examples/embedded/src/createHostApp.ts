import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserdeckOptions, createBrowserdeck } from '@browserdeck/adapters';
import Koa from 'koa';
import mount from 'koa-mount';

/** The prefix under which the host serves Browserdeck's API. */
export const BROWSERDECK_PREFIX = '/browserdeck';

/**
 * An app that embeds Browserdeck: the whole API (sessions and agents included) under its own prefix,
 * its own routes beside it, and one in-process call (`GET /my/projects/count?user=…`).
 */
export async function startHostApp(options: BrowserdeckOptions & { port?: number }) {
  const server = createServer().listen(options.port ?? 4000, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const browserdeck = await createBrowserdeck({ publicUrl: `${url}${BROWSERDECK_PREFIX}`, ...options });
  const app = new Koa();
  app.use(mount(BROWSERDECK_PREFIX, browserdeck.http.middleware));
  app.use(async (ctx) => {
    if (ctx.path !== '/my/projects/count') {
      ctx.body = { host: 'an app that embeds Browserdeck', api: BROWSERDECK_PREFIX };
      return;
    }
    const userId = String(ctx.query.user ?? '');
    const caller = { kind: 'user', userId } as const;
    const owned = userId ? await browserdeck.useCases.projects.list.execute({ caller }) : [];
    ctx.body = { user: userId, activeProjects: owned.length };
  });
  server.on('request', app.callback());
  server.on('upgrade', browserdeck.http.handleUpgrade);
  browserdeck.start();
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await browserdeck.close();
  };
  return { url, browserdeck, close };
}

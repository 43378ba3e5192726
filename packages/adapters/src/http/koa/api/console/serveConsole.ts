import type { Context, Middleware } from 'koa';
import { httpState } from '../../HttpState.ts';
import { httpError } from '../../kernel/errors/toDomainError.ts';
import { mountPrefix } from '../../kernel/routing/mountPrefix.ts';
import { type ConsoleFile, ConsoleFiles, consoleFile } from './ConsoleFiles.ts';
import { consoleContentSecurityPolicy } from './consoleContentSecurityPolicy.ts';
import { consolePath } from './consolePath.ts';
import { CONSOLE_PACKAGE } from './defaultConsoleDir.ts';

/** Where the console is served, below the app's mount prefix. */
export const CONSOLE_PATH = '/console';

/** Hashed build output: its name changes with its content, so browsers keep it for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and unhashed files: kept, but checked with the server (ETag) before each use. */
export const REVALIDATE = 'no-cache';

/** The command that builds the console, named in the 503 a missing build answers. */
export const BUILD_COMMAND = 'npm run build -w @browserdeck/console';

/** What `serveConsole` needs. */
export interface ServeConsoleOptions {
  /** The built console's folder; `undefined` when `@browserdeck/console` is not installed. */
  dir: string | undefined;
  /** Origins the page may frame besides its own (the live view's). */
  frameSources?: readonly string[] | undefined;
}

/** Prefixes whose rewritten page is kept; a host mounts the app under a handful at most. */
const MAX_PAGES = 16;

/**
 * Serves the web console (docs/console.md) at `/console` and below: the built files, hashed assets
 * with `Cache-Control: immutable`, and for the console's root and every client-side route (history
 * routing, e.g. `/console/projects/…`) its `index.html` with `no-cache` and the console's strict
 * Content-Security-Policy. The page's relative asset URLs are made absolute under the mount prefix,
 * so deep links load them from the right place. `GET` and `HEAD` only (405 otherwise, 204 for
 * `OPTIONS`); a path with a dot segment or a hidden name, or a missing file, is 404; a console that
 * is not built (or not installed) is 503 `console_unavailable` naming the command that builds it.
 */
export function serveConsole(options: ServeConsoleOptions): Middleware {
  const files = options.dir === undefined ? undefined : new ConsoleFiles(options.dir);
  const policy = consoleContentSecurityPolicy(options.frameSources);
  const pages = new Map<string, { source: ConsoleFile; page: ConsoleFile }>();

  const pageFor = (source: ConsoleFile, prefix: string): ConsoleFile => {
    const cached = pages.get(prefix);
    if (cached?.source === source) return cached.page;
    const base = `${prefix}${CONSOLE_PATH}/`.replaceAll('&', '&amp;');
    const html = source.body.toString('utf8').replace(/\b(src|href)="\.\//g, `$1="${base}`);
    const page = consoleFile(Buffer.from(html, 'utf8'), source.contentType);
    if (pages.size >= MAX_PAGES) pages.clear();
    pages.set(prefix, { source, page });
    return page;
  };

  return async (ctx, next) => {
    const path = ctx.path;
    const below =
      path === CONSOLE_PATH
        ? ''
        : path.startsWith(`${CONSOLE_PATH}/`)
          ? path.slice(CONSOLE_PATH.length)
          : undefined;
    if (below === undefined) return next();
    httpState(ctx).routePath = `${CONSOLE_PATH}/*`;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
      throw httpError('method_not_allowed', `${ctx.method} is not allowed on ${path}; allowed: GET, HEAD.`);
    }
    const segments = consolePath(below);
    if (!segments) throw httpError('not_found', `There is no console file at ${path}.`);
    if (!files) {
      throw httpError(
        'console_unavailable',
        `The web console is not installed: add the ${CONSOLE_PACKAGE} package (or point the console setting's dir at a built console).`,
      );
    }
    const index = await files.read(['index.html']);
    if (!index) {
      throw httpError(
        'console_unavailable',
        `The web console is not built: run \`${BUILD_COMMAND}\` (npm ci and npm install run it), then reload.`,
      );
    }
    const wantsPage = segments.length === 0 || (segments.length === 1 && segments[0] === 'index.html');
    if (!wantsPage) {
      const file = await files.read(segments);
      if (file) return send(ctx, file, segments[0] === 'assets' ? IMMUTABLE : REVALIDATE);
      const last = segments.at(-1) ?? '';
      if (segments[0] === 'assets' || last.includes('.')) {
        throw httpError('not_found', `There is no console file at ${path}.`);
      }
    }
    send(ctx, pageFor(index, mountPrefix(ctx)), REVALIDATE);
    ctx.set('Content-Security-Policy', policy);
    ctx.set('Referrer-Policy', 'no-referrer');
  };
}

/** Answers `file` (gzipped when the client takes it), or 304 when the client's copy is current. */
function send(ctx: Context, file: ConsoleFile, cacheControl: string): void {
  const gzip = file.gzip !== undefined && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  ctx.set('Cache-Control', cacheControl);
  if (file.gzip) ctx.set('Vary', 'Accept-Encoding');
  // Each encoding is its own representation, with its own strong validator.
  ctx.set('ETag', gzip ? `${file.etag.slice(0, -1)}-gz"` : file.etag);
  ctx.type = file.contentType;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzip ? file.gzip : file.body;
}

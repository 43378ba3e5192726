import { Readable } from 'node:stream';
import { type BrowserProvider, DomainError, type ProviderSessionSnapshot } from '@browserdeck/domain';
import type { Middleware } from 'koa';
import type { LiveViewHub } from '../browsers/live-view/LiveViewHub.ts';
import { INSTANCE_AUTH_HEADER, type InstanceAuth } from './InstanceAuth.ts';
import { INTERNAL_PREFIX, type InstancePing, type WireError } from './InstanceClient.ts';

/** The largest body another instance sends (a release's provider project id). */
const MAX_BODY_BYTES = 4096;

const PROVIDER_SESSION = /^\/provider-sessions\/([^/]+)(\/release|\/logs|\/pages|\/downloads|\/upload)?$/;

/**
 * Serves calls from other instances under `/internal/v1/` (`InstanceClient`): who this is
 * (`GET /instance`), and `get`, `release`, `logs`, `downloads` (a zip, streamed), `upload` (the file as
 * the body, its name in the query) and live-view `pages` of a session whose browser this instance's
 * provider (`provider`, the inner one: a call is never carried on again) holds. Every call must be
 * signed for this instance (`InstanceAuth`), else 401 and nothing else is said. A provider error is a
 * 502 with its code, message and retry-after. Other paths pass through to the API.
 */
export function serveInstanceCalls(deps: {
  auth: InstanceAuth;
  bootId: string;
  provider: BrowserProvider;
  /** This instance's own live-view hub, for the tabs of its sessions (`/pages`). */
  hub?: LiveViewHub | undefined;
}): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(`${INTERNAL_PREFIX}/`)) return next();
    ctx.set('cache-control', 'no-store');
    if (!deps.auth.verify(ctx.method, ctx.originalUrl, ctx.get(INSTANCE_AUTH_HEADER) || undefined)) {
      ctx.status = 401;
      ctx.body = { code: 'unauthorized', message: 'This route is for other Browserdeck instances.' };
      return;
    }
    const rest = ctx.path.slice(INTERNAL_PREFIX.length);
    if (rest === '/instance' && ctx.method === 'GET') {
      ctx.body = { id: deps.auth.instanceId, bootId: deps.bootId } satisfies InstancePing;
      return;
    }
    const match = PROVIDER_SESSION.exec(rest);
    const providerSessionId = match ? decodeURIComponent(match[1] ?? '') : '';
    const operation = match?.[2] ?? '';
    try {
      if (match && operation === '' && ctx.method === 'GET') {
        return answer(ctx, await deps.provider.get(providerSessionId));
      }
      if (match && operation === '/release' && ctx.method === 'POST') {
        const body = (await readJson(ctx.req)) as { providerProjectId?: unknown };
        const projectId = typeof body.providerProjectId === 'string' ? body.providerProjectId : undefined;
        return answer(ctx, await deps.provider.release(providerSessionId, projectId));
      }
      if (match && operation === '/pages' && ctx.method === 'GET' && deps.hub) {
        const pages = await deps.hub.pages(providerSessionId);
        if (pages) ctx.body = pages;
        else answer(ctx, null);
        return;
      }
      if (match && operation === '/logs' && ctx.method === 'GET') {
        ctx.body = await deps.provider.logs(providerSessionId);
        return;
      }
      if (match && operation === '/downloads' && ctx.method === 'GET' && deps.provider.downloads) {
        const archive = await deps.provider.downloads(providerSessionId);
        if (!archive) return answer(ctx, null);
        ctx.body = Readable.from(archive, { objectMode: false });
        ctx.type = 'application/zip';
        return;
      }
      if (match && operation === '/upload' && ctx.method === 'POST' && deps.provider.upload) {
        // The caller's use case checked the name and counts the bytes against the upload limit.
        const name = typeof ctx.query.name === 'string' ? ctx.query.name : '';
        const stored = await deps.provider.upload(providerSessionId, { name, content: ctx.req });
        if (stored) ctx.body = stored;
        else answer(ctx, null);
        return;
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      ctx.status = 502;
      ctx.body = {
        code: error.code,
        message: error.message,
        ...(error.retryAfterSec === undefined ? {} : { retryAfterSec: error.retryAfterSec }),
      } satisfies WireError;
      return;
    }
    ctx.status = 404;
    ctx.body = { code: 'not_found', message: 'No such internal route.' };
  };
}

function answer(ctx: { status: number; body: unknown }, snapshot: ProviderSessionSnapshot | null): void {
  if (snapshot) ctx.body = snapshot;
  else {
    ctx.status = 404;
    ctx.body = { code: 'not_found', message: 'This instance does not know the session.' };
  }
}

async function readJson(stream: AsyncIterable<Buffer>): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new DomainError('validation_failed', 'Body too large.');
    chunks.push(chunk);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new DomainError('malformed_json', 'The body is not JSON.');
  }
}

import type { Context, Middleware } from 'koa';
import proxyaddr from 'proxy-addr';
import { httpState } from '../../HttpState.ts';
import { type ForwardedOrigin, publicUrlsFor } from './PublicUrls.ts';
import { compileTrustProxy, type TrustProxy } from './TrustProxy.ts';

/** What `forwardedRequest` trusts, and the public URL it hands out by default. */
export interface ForwardedRequestOptions {
  /** Which peers' forwarded headers count; default `false` (none). */
  trust?: TrustProxy | undefined;
  /** The configured public URL, with its path prefix. */
  publicUrl: string;
  /**
   * Whether a trusted peer's `X-Forwarded-Proto` / `X-Forwarded-Host` replace the public URL's scheme
   * and host for its request's handed-out URLs (`false` when the host configured the URL itself).
   */
  publicUrlFromProxy?: boolean | undefined;
}

/** A host as a URL authority: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const FORWARDED_HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * Early middleware: the one place the client's address and public origin are decided. Sets
 * `ctx.request.ip` (which rate limits and logs read) from `X-Forwarded-For` through trusted hops only
 * (`proxy-addr`: the nearest untrusted address, the socket's peer when it is untrusted), and keeps
 * the request's public URLs in `httpState(ctx).publicUrls`: forwarded proto and host only when the
 * socket's peer is trusted and `publicUrlFromProxy` is on. Koa's own `proxy` option is not used.
 */
export function forwardedRequest(options: ForwardedRequestOptions): Middleware {
  const trusts = compileTrustProxy(options.trust ?? false);
  const configured = options.publicUrl.replace(/\/+$/, '');
  const fixed = publicUrlsFor(configured);
  return async (ctx, next) => {
    const state = httpState(ctx);
    state.publicUrls = fixed;
    // Set whatever the trust, so a host app's own `proxy` setting (when mounted) does not decide it.
    ctx.request.ip = proxyaddr(ctx.req, trusts) ?? '';
    const peer = ctx.req.socket.remoteAddress;
    if (options.publicUrlFromProxy && peer !== undefined && trusts(peer, 0)) {
      const origin = forwardedOrigin(ctx, configured);
      if (origin) state.publicUrls = publicUrlsFor(configured, origin);
    }
    await next();
  };
}

/**
 * The origin `X-Forwarded-Proto` and `X-Forwarded-Host` name (their first values: the client's side),
 * the missing one from `Host` or the configured URL; none when neither header is sent or one is malformed.
 */
function forwardedOrigin(ctx: Context, configured: string): ForwardedOrigin | undefined {
  const first = (name: string) => ctx.get(name).split(',')[0]?.trim() ?? '';
  const proto = first('X-Forwarded-Proto').toLowerCase();
  const host = first('X-Forwarded-Host');
  if (!proto && !host) return undefined;
  const url = new URL(configured);
  const protocol = proto || url.protocol.slice(0, -1);
  const authority = host || ctx.get('Host') || url.host;
  if ((protocol !== 'http' && protocol !== 'https') || !FORWARDED_HOST.test(authority)) return undefined;
  try {
    // Normalised (case, default port); a port past 65535 throws.
    return { protocol, host: new URL(`${protocol}://${authority}`).host };
  } catch {
    return undefined;
  }
}

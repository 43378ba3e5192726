import type { Context } from 'koa';

/** One or more `/segment`s of RFC 3986 path characters: no empty segment, backslash, quote or `<>`. */
const SAFE_PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

/** `.` or `..`, also percent-encoded, which browsers resolve as dot segments. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** `scheme://authority` of an absolute-form request target (`GET http://host/path`). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path prefix the app is mounted under: `''` at the root, `'/browserdeck'` when a host mounts it
 * with `koa-mount` (`host.use(mount('/browserdeck', app))`), `'/a/b'` for nested mounts. Links the
 * API hands out (the `/docs` page's, problem `type`s, the OpenAPI `servers`) start with it.
 *
 * A mount strips its prefix from `ctx.path` and leaves `ctx.originalUrl` whole, so the prefix is what
 * the original path has before `ctx.path`. Nothing else the client sends counts (no
 * `X-Forwarded-Prefix`), and anything that is not a plain path (`//host`, `\`, dot segments) is `''`,
 * so a crafted request cannot make the API link elsewhere.
 */
export function mountPrefix(ctx: Pick<Context, 'originalUrl' | 'path'>): string {
  const original = ctx.originalUrl.replace(ABSOLUTE_FORM, '').split(/[?#]/, 1)[0] ?? '';
  const path = ctx.path;
  if (original === path) return '';
  let prefix: string;
  if (original.endsWith(path)) prefix = original.slice(0, original.length - path.length);
  // koa-mount makes the mount point itself (`/browserdeck`) the mounted app's `/`.
  else if (path === '/') prefix = original;
  else return '';
  if (!SAFE_PREFIX.test(prefix)) return '';
  if (prefix.split('/').some((segment) => DOT_SEGMENT.test(segment))) return '';
  return prefix;
}

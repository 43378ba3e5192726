// The value types of the environment variables (`config.ts`): their parsing and checks, one per kind.
import { parseTrustProxy } from '@browserdeck/adapters/http-koa';
import { EgressPolicy } from '@browserdeck/adapters/local-chromium';
import { z } from 'zod';

export const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
export const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/**
 * `EGRESS_ALLOW` / `EGRESS_DENY`: comma-separated CIDRs, addresses or host names, each optionally
 * with a `:port`, each checked.
 */
export function egressList(text: string, ctx: z.RefinementCtx<string>): string[] {
  try {
    return EgressPolicy.parseList(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
}

/**
 * A per-browser limit (`LOCAL_BROWSER_*`, `LOCAL_SESSION_DISK_MB`): `off` or 0 for none, else an
 * integer within the provider's bounds; unset: the provider's default, sized to the host.
 */
export const browserLimit = ({ min, max }: { min: number; max: number }) =>
  z
    .string()
    .trim()
    .transform((text, ctx) => {
      const value = text.toLowerCase() === 'off' ? 0 : Number(text);
      if (Number.isInteger(value) && (value === 0 || (value >= min && value <= max))) return value;
      ctx.addIssue({ code: 'custom', message: `must be off (or 0) or an integer from ${min} to ${max}` });
      return z.NEVER;
    })
    .optional();

/** `METRICS_TOKEN`: a bearer token (RFC 6750 token68 characters), long enough not to be guessed. */
export const metricsToken = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9\-._~+/]{16,1024}=*$/,
    'must be 16 to 1024 characters of A-Z a-z 0-9 - . _ ~ + / (a bearer token)',
  )
  .optional();

/**
 * `SELENIUM_GRID_HEADERS`: a JSON object of header names to string values, sent with every request
 * to the Grid (e.g. `{"Authorization":"Bearer …"}`). The values never appear in an error message.
 */
export const gridHeaders = z
  .string()
  .trim()
  .transform((text, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of header names to strings' });
      return z.NEVER;
    }
    const entries =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed) : null;
    const bad = entries?.find(
      ([name, value]) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== 'string',
    );
    if (!entries || bad) {
      ctx.addIssue({
        code: 'custom',
        message: bad
          ? `must map header names to strings (${JSON.stringify(bad[0])} does not)`
          : 'must be a JSON object of header names to strings',
      });
      return z.NEVER;
    }
    return Object.fromEntries(entries) as Record<string, string>;
  })
  .optional();

/** `METRICS_LISTEN`: `host:port` (an IPv6 host in brackets, `[::1]:9464`); port 0 picks a free one. */
export const listenAddress = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(text);
    const port = Number(match?.[3]);
    if (!match || port > 65535) {
      ctx.addIssue({ code: 'custom', message: 'must be host:port, e.g. 127.0.0.1:9464 or [::1]:9464' });
      return z.NEVER;
    }
    return { host: (match[1] ?? match[2]) as string, port };
  })
  .optional();

/**
 * `TRUST_PROXY`: `false` (default), `true` (every hop), a hop count (the proxies nearest the server),
 * or comma-separated addresses, CIDRs (IPv4, IPv6) and `loopback`, `linklocal`, `uniquelocal`.
 */
export const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((text, ctx) => {
    try {
      return parseTrustProxy(text);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, true, a hop count or a comma-separated list of addresses and CIDRs (${(error as Error).message})`,
      });
      return z.NEVER;
    }
  });

import {
  Checks,
  checkSessionProxies,
  PROXY_CITY_MAX_LENGTH,
  PROXY_CREDENTIAL_MAX_LENGTH,
  PROXY_DOMAIN_PATTERN_MAX_LENGTH,
  PROXY_SERVER_MAX_LENGTH,
  PROXY_SERVER_SCHEMES,
  SESSION_PROXIES_MAX,
  SESSION_PROXY_TYPES,
  ValidationError,
} from '@browserdeck/domain';
import { z } from 'zod';

const domainPattern = z.string('must be a string').meta({
  description: `A regular expression (JavaScript syntax, at most ${PROXY_DOMAIN_PATTERN_MAX_LENGTH} characters) over the request’s host name: this entry carries the requests whose host it matches, the first matching entry winning. Absent: every host.`,
});

const credential = (description: string) =>
  z
    .string('must be a string')
    .meta({ description: `${description}, at most ${PROXY_CREDENTIAL_MAX_LENGTH} characters.` });

/** The caller's own proxy: Browserbase's `ExternalProxyConfig`. */
const ExternalProxy = z.strictObject({
  type: z.literal('external'),
  server: z.string('must be a string').meta({
    description: `The proxy’s URL: ${PROXY_SERVER_SCHEMES.map((s) => `${s}://`).join(', ')} then host:port, nothing more (at most ${PROXY_SERVER_MAX_LENGTH} characters). Its address is judged by the server’s egress policy.`,
  }),
  username: credential('Proxy-Authorization user name, without ":"').optional(),
  password: credential('Its password (only with a username); stored encrypted, never returned').optional(),
  domainPattern: domainPattern.optional(),
});

/** No proxy for the matching hosts: straight out through the egress proxy. */
const NoProxy = z.strictObject({ type: z.literal('none'), domainPattern: domainPattern.optional() });

/** The provider's own proxies (Browserbase only; the local provider refuses it). */
const ProviderProxy = z.strictObject({
  type: z.literal('browserbase'),
  geolocation: z
    .strictObject({
      country: z.string('must be a string').meta({ description: 'ISO 3166-1 alpha-2 country code.' }),
      state: z
        .string('must be a string')
        .optional()
        .meta({ description: 'US state code; only with country US.' }),
      city: z
        .string('must be a string')
        .optional()
        .meta({ description: `City name, at most ${PROXY_CITY_MAX_LENGTH} characters.` }),
    })
    .optional(),
  domainPattern: domainPattern.optional(),
});

/**
 * http-api.md §5's `proxies` (and §13's array form): upstream proxies in Browserbase's shapes. The
 * shapes are declared here for OpenAPI; every rule (the server's form, lengths, characters, the
 * pattern compiling) is the domain's `checkSessionProxies`, so both dialects and in-process callers
 * refuse the same values with the same messages.
 */
export const sessionProxiesField = z
  .array(
    z.discriminatedUnion('type', [ExternalProxy, NoProxy, ProviderProxy], {
      error: `must be an object whose type is one of ${SESSION_PROXY_TYPES.join(', ')}`,
    }),
    'must be an array of proxies',
  )
  .check((ctx) => {
    try {
      checkSessionProxies(new Checks(), ctx.value, '').throwIfAny();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const { path, message } of error.errors ?? []) {
        const keys = path.split('.').filter(Boolean);
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message,
          path: keys.map((key) => (/^\d+$/.test(key) ? Number(key) : key)),
        });
      }
    }
  })
  .meta({
    description: `Upstream proxies for the session’s traffic, at most ${SESSION_PROXIES_MAX}: the first entry whose domainPattern matches a request’s host carries it; no matching entry: direct. Credentials are stored encrypted and never returned.`,
  });

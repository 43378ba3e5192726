import { BlockList } from 'node:net';
import type { BrowserdeckOptions } from '@browserdeck/adapters';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether `HOST` is a loopback address (`127.0.0.0/8`, `::1`, also IPv4-mapped) or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  for (const family of ['ipv4', 'ipv6'] as const) {
    try {
      if (LOOPBACK.check(name, family)) return true;
    } catch {
      // Not an address of that family (a host name, the other family).
    }
  }
  return false;
}

/**
 * Whether `/metrics` is withheld from the API address: neither `METRICS_TOKEN` nor `METRICS_LISTEN`
 * is set, and the API address is public: the server listens beyond loopback (`HOST` `0.0.0.0`,
 * `::`, a LAN address or name), or a proxy forwards to it (`TRUST_PROXY` set: on loopback behind
 * a proxy, the proxy makes the address public, whatever paths it means to keep to itself).
 */
export function metricsWithheld(config: Config): boolean {
  const publicAddress = !isLoopbackHost(config.HOST) || config.TRUST_PROXY !== false;
  return publicAddress && !config.METRICS_TOKEN && !config.METRICS_LISTEN;
}

/** The start-up line when `/metrics` is withheld: how to serve it. */
export const METRICS_WITHHELD_MESSAGE =
  '/metrics is not served: the API address is public (HOST beyond loopback, or TRUST_PROXY set) and neither METRICS_TOKEN nor METRICS_LISTEN is set. ' +
  'Set METRICS_TOKEN to serve it here behind a bearer token, or METRICS_LISTEN (e.g. 127.0.0.1:9464) ' +
  'to serve it on an address of its own';

/** Logs `METRICS_WITHHELD_MESSAGE` (warn) when `/metrics` is withheld. */
export function warnIfMetricsWithheld(config: Config, logger: Logger): void {
  if (metricsWithheld(config)) logger.warn({ host: config.HOST }, METRICS_WITHHELD_MESSAGE);
}

/**
 * The HTTP settings of `createBrowserdeck` from the configuration: CORS, the cut-off, proxy trust
 * (forwarded scheme and host only when `PUBLIC_URL` is unset: a configured one wins), and who may
 * read `/metrics` where (on another address with `METRICS_LISTEN`; not at all when withheld).
 */
export function httpSettings(config: Config): NonNullable<BrowserdeckOptions['http']> {
  return {
    corsOrigins: config.CORS_ORIGINS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_SEC * 1000,
    trustProxy: config.TRUST_PROXY,
    publicUrlFromProxy: config.PUBLIC_URL === undefined,
    metricsEndpoint: {
      token: config.METRICS_TOKEN,
      // Withheld, it is left out as when another address serves it (404 here, not in the OpenAPI document).
      separate: config.METRICS_LISTEN !== undefined || metricsWithheld(config),
    },
  };
}

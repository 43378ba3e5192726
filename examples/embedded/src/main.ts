import { parseTrustProxy } from '@browserdeck/adapters/http-koa';
import { startHostApp } from './createHostApp.ts';

/** `npm start -w @browserdeck/example-embedded`: a host app on port 4000 with Browserdeck under /browserdeck. */
const host = await startHostApp({
  port: Number(process.env.PORT ?? 4000),
  dataDir: process.env.DATA_DIR ?? './data-embedded',
  // The same options the standalone server reads: a bearer token for /browserdeck/metrics, and which
  // proxies in front may say who the client is and how it came (its public URL is only a default).
  http: {
    metricsEndpoint: { token: process.env.METRICS_TOKEN || undefined },
    trustProxy: process.env.TRUST_PROXY ? parseTrustProxy(process.env.TRUST_PROXY) : undefined,
    publicUrlFromProxy: true,
  },
});
host.browserdeck.logger.info({ url: host.url }, 'the host app is listening');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void host.close().then(() => process.exit(0)));
}

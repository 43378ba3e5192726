import { createMikroOrm, migrateToLatest, securePrivateDir } from '@browserdeck/adapters';
import { pino } from 'pino';
import { createHostApp } from './createHostApp.ts';

/** `npm start -w @browserdeck/example-embedded`: a host app on port 4000 with Browserdeck under /browserdeck. */
const dataDir = process.env.DATA_DIR ?? './data-embedded';
const logger = pino();
// The data folder holds the database and the signing key: private (0700, files 0600) from the start.
const { tightened } = await securePrivateDir(dataDir);
if (tightened.length > 0) logger.warn({ dataDir, tightened }, 'made the data folder 0700 and its files 0600');
const orm = await createMikroOrm({ databaseUrl: `sqlite:${dataDir}/host.sqlite` });
await migrateToLatest(orm);
// The same option the standalone server reads: a bearer token for /browserdeck/metrics.
const metricsToken = process.env.METRICS_TOKEN || undefined;
const app = await createHostApp({ orm, dataDir, logger, metricsEndpoint: { token: metricsToken } });
app.listen(Number(process.env.PORT ?? 4000), '127.0.0.1');

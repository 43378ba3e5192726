import { createMikroOrm, migrateToLatest } from '@browserdeck/adapters';
import { pino } from 'pino';
import { createHostApp } from './createHostApp.ts';

/** `npm start -w @browserdeck/example-embedded`: a host app on port 4000 with Browserdeck under /browserdeck. */
const dataDir = process.env.DATA_DIR ?? './data-embedded';
const orm = await createMikroOrm({ databaseUrl: `sqlite:${dataDir}/host.sqlite` });
await migrateToLatest(orm);
const app = await createHostApp({ orm, dataDir, logger: pino() });
app.listen(Number(process.env.PORT ?? 4000), '127.0.0.1');

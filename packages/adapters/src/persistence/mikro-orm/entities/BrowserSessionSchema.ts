import { BrowserSession, type BrowserSessionState, type SessionViewport } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, JsonType, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/**
 * A `browser_sessions` row as MikroORM sees it: the domain `BrowserSession`'s fields, with `env`
 * sealed (a `SecretBox` string holding the JSON object), `proxies` sealed likewise (they carry the
 * upstream proxies' credentials; null: none), `connectUrl` sealed (it carries the provider's signing
 * key; rows from before hold it plain), the reconciler's `syncLeaseUntil` and the files the session
 * took (`uploadCount`, `countUpload`). The repository turns it into a plain `BrowserSession`.
 */
export type StoredBrowserSession = Omit<BrowserSessionState, 'env' | 'proxies'> & {
  env: string;
  proxies: string | null;
  syncLeaseUntil: Date | null;
  uploadCount: number;
};

/** The columns of `browser_sessions`, each named once: the Kysely queries are typed from them too. */
const browserSessionProperties = {
  id: p.uuid().primary(),
  projectId: () =>
    p.manyToOne(ProjectSchema).mapToPk().fieldName('project_id').deleteRule('cascade').index(false),
  provider: p.text(),
  providerSessionId: p.text().index(),
  providerProjectId: p.text(),
  providerInstanceId: p.text().nullable().index(),
  status: p.text(),
  connectUrl: p.text(),
  seleniumRemoteUrl: p.text().nullable(),
  createdAt: p.datetime(3),
  updatedAt: p.datetime(3),
  startedAt: p.datetime(3),
  endedAt: p.datetime(3).nullable(),
  expiresAt: p.datetime(3).nullable(),
  lastSyncedAt: p.datetime(3),
  name: p.text(),
  script: p.text(),
  env: p.text(),
  region: p.text(),
  timeoutSec: p.integer(),
  extensionId: p.text().nullable(),
  contextId: p.text().nullable(),
  agentId: p.uuid().nullable(),
  metadata: p.json<Record<string, unknown>>().default('{}'),
  keepAlive: p.boolean().default(true),
  viewport: p.json<SessionViewport>().nullable(),
  proxies: p.text().nullable(),
  // Bytes: past 2^31 within a long session; read as a JS number (exact up to 2^53, 8 PiB).
  proxyBytes: p.bigint('number').default(0),
  syncLeaseUntil: p.datetime(3).nullable(),
  // Files the session took (`countUpload`): only ever incremented or decremented in place.
  uploadCount: p.integer().default(0),
};

/** Every property of `browser_sessions`, in schema order: what a new session's insert writes. */
export const BROWSER_SESSION_PROPERTIES = Object.keys(browserSessionProperties) as Array<
  keyof StoredBrowserSession
>;

/**
 * Maps the domain `BrowserSession` onto `browser_sessions`. `projectId` is a foreign key with
 * `on delete cascade`; `agentId` is a plain column (no foreign key), so sessions keep it after their
 * agent is deleted.
 */
export const BrowserSessionSchema = defineEntity<StoredBrowserSession, typeof browserSessionProperties>({
  class: BrowserSession as unknown as EntityCtor<StoredBrowserSession>,
  tableName: 'browser_sessions',
  properties: browserSessionProperties,
  // All ascending: listing runs `order by created_at desc, id desc`, a backward scan (see ProjectSchema).
  indexes: [
    // `list` without a status filter; also finds a project's rows for stats. `proxy_bytes` trails so
    // the series' per-bucket sums of created sessions read only the index.
    {
      name: 'browser_sessions_project_id_created_at_index',
      properties: ['projectId', 'createdAt', 'id', 'proxyBytes'],
    },
    // `list` with a status filter and `listActiveInProject`. The trailing columns make it cover the
    // stats aggregates (status, created_at, started_at, ended_at, proxy_bytes), so stats read only the index.
    {
      name: 'browser_sessions_project_id_status_created_at_index',
      properties: ['projectId', 'status', 'createdAt', 'id', 'startedAt', 'endedAt', 'proxyBytes'],
    },
    // The reconciler's claim: active sessions, least recently synced first. Partial, so it stays as
    // small as the number of live browsers however many ended sessions pile up.
    {
      name: 'browser_sessions_active_last_synced_at_index',
      properties: ['lastSyncedAt'],
      where: { status: { $in: ['PENDING', 'RUNNING'] } },
    },
  ],
});

/** The JSON columns (`p.json()`), which the SQLite driver hands back as text on raw reads. */
export const BROWSER_SESSION_JSON_PROPERTIES = BROWSER_SESSION_PROPERTIES.filter(
  // `type` holds the type class here (the builder's `p.json()`), though MikroORM declares it a name.
  (key) => (BrowserSessionSchema.meta.properties[key]?.type as unknown) === JsonType,
);

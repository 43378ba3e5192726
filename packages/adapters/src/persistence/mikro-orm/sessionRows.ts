import { BrowserSession, type SessionStatus } from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
import { type SqlParam, sqlBoolean, sqlDate } from './NativeSql.ts';
import { openConnectUrl, openSecretRecord, sealSecretRecord } from './secretRecords.ts';

/**
 * The row for `session`, no sync lease. `env` and `connectUrl` are sealed: the connect URL carries
 * the provider's signing key (`?signingKey=…`), which is never stored in plain text (http-api.md §10).
 */
export function toSessionRow(session: BrowserSession, secrets: SecretBox): StoredBrowserSession {
  return {
    id: session.id,
    projectId: session.projectId,
    provider: session.provider,
    providerSessionId: session.providerSessionId,
    providerProjectId: session.providerProjectId,
    providerInstanceId: session.providerInstanceId,
    status: session.status,
    connectUrl: secrets.seal(session.connectUrl),
    seleniumRemoteUrl: session.seleniumRemoteUrl,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    expiresAt: session.expiresAt,
    lastSyncedAt: session.lastSyncedAt,
    name: session.name,
    script: session.script,
    env: sealSecretRecord(secrets, session.env),
    region: session.region,
    timeoutSec: session.timeoutSec,
    extensionId: session.extensionId,
    contextId: session.contextId,
    agentId: session.agentId,
    metadata: session.metadata,
    keepAlive: session.keepAlive,
    syncLeaseUntil: null,
  };
}

/**
 * A plain `BrowserSession` (hydrated like MikroORM does, without its constructor) from a loaded
 * row: `env` and `connectUrl` opened (a plain connect URL of an older row read as it is), the sync
 * lease left behind.
 */
export function toBrowserSession(row: StoredBrowserSession, secrets: SecretBox): BrowserSession {
  const session: Omit<StoredBrowserSession, 'env' | 'syncLeaseUntil'> & { env: Record<string, string> } = {
    id: row.id,
    projectId: row.projectId,
    provider: row.provider,
    providerSessionId: row.providerSessionId,
    providerProjectId: row.providerProjectId,
    providerInstanceId: row.providerInstanceId ?? null,
    status: row.status as SessionStatus,
    connectUrl: openConnectUrl(secrets, row.connectUrl),
    seleniumRemoteUrl: row.seleniumRemoteUrl ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    endedAt: row.endedAt ?? null,
    expiresAt: row.expiresAt ?? null,
    lastSyncedAt: row.lastSyncedAt,
    name: row.name,
    script: row.script,
    env: openSecretRecord(secrets, row.env),
    region: row.region,
    timeoutSec: row.timeoutSec,
    extensionId: row.extensionId ?? null,
    contextId: row.contextId ?? null,
    agentId: row.agentId ?? null,
    metadata: storedMetadata(row.metadata),
    // A row the column's default filled (bench seeds) reads as the default.
    keepAlive: row.keepAlive === undefined || row.keepAlive === null ? true : sqlBoolean(row.keepAlive),
  };
  return Object.assign(Object.create(BrowserSession.prototype) as BrowserSession, session);
}

/**
 * The `metadata` column as it comes back: an object when MikroORM or `pg` parsed it, the JSON text
 * when the SQLite driver returns it raw, nothing on a row the column's default filled.
 */
function storedMetadata(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return (value ?? {}) as Record<string, unknown>;
}

const insertSql = new Map<string, string>();

/**
 * The `insert` of `row` for `NativeSql`: one column per field of the row (`toSessionRow` writes them
 * all), named as MikroORM names them (`projectId` → `project_id`); `metadata` as its JSON text.
 */
export function insertSessionStatement(row: StoredBrowserSession): { sql: string; params: SqlParam[] } {
  const keys = Object.keys(row) as Array<keyof StoredBrowserSession>;
  const signature = keys.join(',');
  let sql = insertSql.get(signature);
  if (!sql) {
    const columns = keys.map((key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    sql = `insert into browser_sessions (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    insertSql.set(signature, sql);
  }
  return {
    sql,
    params: keys.map(
      (key) => (key === 'metadata' ? JSON.stringify(row.metadata) : (row[key] ?? null)) as SqlParam,
    ),
  };
}

/** A `browser_sessions` row as the drivers return it (every column but the sync lease). */
export interface SessionDbRow {
  id: string;
  project_id: string;
  provider: string;
  provider_session_id: string;
  provider_project_id: string;
  provider_instance_id: string | null;
  status: string;
  connect_url: string;
  selenium_remote_url: string | null;
  created_at: unknown;
  updated_at: unknown;
  started_at: unknown;
  ended_at: unknown;
  expires_at: unknown;
  last_synced_at: unknown;
  name: string;
  script: string;
  env: string;
  region: string;
  timeout_sec: unknown;
  extension_id: string | null;
  context_id: string | null;
  agent_id: string | null;
  /** A JSON object: its text on SQLite, parsed on PostgreSQL. */
  metadata: unknown;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  keep_alive: unknown;
}

/** Every column of `browser_sessions` but `sync_lease_until`, in `SessionDbRow`'s shape. */
export const SELECT_SESSION = `select id, project_id, provider, provider_session_id, provider_project_id,
    provider_instance_id, status,
    connect_url, selenium_remote_url, created_at, updated_at, started_at, ended_at, expires_at, last_synced_at,
    name, script, env, region, timeout_sec, extension_id, context_id, agent_id, metadata, keep_alive
  from browser_sessions`;

const optionalDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : sqlDate(value);

/** The plain `BrowserSession` a driver row (`SELECT_SESSION`) stores, `env` and `connectUrl` opened. */
export function toBrowserSessionFromDb(row: SessionDbRow, secrets: SecretBox): BrowserSession {
  return toBrowserSession(
    {
      id: row.id,
      projectId: row.project_id,
      provider: row.provider,
      providerSessionId: row.provider_session_id,
      providerProjectId: row.provider_project_id,
      providerInstanceId: row.provider_instance_id,
      status: row.status as SessionStatus,
      connectUrl: row.connect_url,
      seleniumRemoteUrl: row.selenium_remote_url,
      createdAt: sqlDate(row.created_at),
      updatedAt: sqlDate(row.updated_at),
      startedAt: sqlDate(row.started_at),
      endedAt: optionalDate(row.ended_at),
      expiresAt: optionalDate(row.expires_at),
      lastSyncedAt: sqlDate(row.last_synced_at),
      name: row.name,
      script: row.script,
      env: row.env,
      region: row.region,
      timeoutSec: Number(row.timeout_sec),
      extensionId: row.extension_id,
      contextId: row.context_id,
      agentId: row.agent_id,
      metadata: storedMetadata(row.metadata),
      keepAlive: sqlBoolean(row.keep_alive),
      syncLeaseUntil: null,
    },
    secrets,
  );
}

import { BrowserSession, type SessionStatus } from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
import type { SqlParam } from './NativeSql.ts';
import { openSecretRecord, sealSecretRecord } from './secretRecords.ts';

/** The row for `session`, `env` sealed, no sync lease. */
export function toSessionRow(session: BrowserSession, secrets: SecretBox): StoredBrowserSession {
  return {
    id: session.id,
    projectId: session.projectId,
    provider: session.provider,
    providerSessionId: session.providerSessionId,
    providerProjectId: session.providerProjectId,
    status: session.status,
    connectUrl: session.connectUrl,
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
    syncLeaseUntil: null,
  };
}

/**
 * A plain `BrowserSession` (hydrated like MikroORM does, without its constructor) from a loaded
 * row: `env` opened, the sync lease left behind.
 */
export function toBrowserSession(row: StoredBrowserSession, secrets: SecretBox): BrowserSession {
  const session: Omit<StoredBrowserSession, 'env' | 'syncLeaseUntil'> & { env: Record<string, string> } = {
    id: row.id,
    projectId: row.projectId,
    provider: row.provider,
    providerSessionId: row.providerSessionId,
    providerProjectId: row.providerProjectId,
    status: row.status as SessionStatus,
    connectUrl: row.connectUrl,
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
  };
  return Object.assign(Object.create(BrowserSession.prototype) as BrowserSession, session);
}

const insertSql = new Map<string, string>();

/**
 * The `insert` of `row` for `NativeSql`: one column per field of the row (`toSessionRow` writes them
 * all), named as MikroORM names them (`projectId` → `project_id`).
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
  return { sql, params: keys.map((key) => (row[key] ?? null) as SqlParam) };
}

import { BrowserSession, type SessionStatus } from '@browserdeck/domain';
import type { EntityData } from '@mikro-orm/core';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
import { openConnectUrl, openSecretRecord, sealSecretRecord } from './secretRecords.ts';

/**
 * The row for `session`, no sync lease. `env` and `connectUrl` are sealed: the connect URL carries
 * the provider's signing key (`?signingKey=…`), which is never stored in plain text (http-api.md §10).
 */
export function toSessionRow(session: BrowserSession, secrets: SecretBox): StoredBrowserSession {
  const { env, connectUrl, ...state } = session;
  return {
    ...state,
    connectUrl: secrets.seal(connectUrl),
    env: sealSecretRecord(secrets, env),
    syncLeaseUntil: null,
  };
}

/**
 * The `BrowserSession` (`BrowserSession.restore`) a loaded row holds, property-named (MikroORM's
 * result mapper or an entity it loaded): `env` and `connectUrl` opened (a plain connect URL of an
 * older row read as it is), the sync lease left behind.
 */
export function toBrowserSession(
  row: EntityData<StoredBrowserSession> | StoredBrowserSession,
  secrets: SecretBox,
): BrowserSession {
  const stored = row as StoredBrowserSession;
  return BrowserSession.restore({
    id: stored.id,
    projectId: stored.projectId,
    provider: stored.provider,
    providerSessionId: stored.providerSessionId,
    providerProjectId: stored.providerProjectId,
    providerInstanceId: stored.providerInstanceId ?? null,
    status: stored.status as SessionStatus,
    connectUrl: openConnectUrl(secrets, stored.connectUrl),
    seleniumRemoteUrl: stored.seleniumRemoteUrl ?? null,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
    startedAt: stored.startedAt,
    endedAt: stored.endedAt ?? null,
    expiresAt: stored.expiresAt ?? null,
    lastSyncedAt: stored.lastSyncedAt,
    name: stored.name,
    script: stored.script,
    env: openSecretRecord(secrets, stored.env),
    region: stored.region,
    timeoutSec: Number(stored.timeoutSec),
    extensionId: stored.extensionId ?? null,
    contextId: stored.contextId ?? null,
    agentId: stored.agentId ?? null,
    metadata: storedMetadata(stored.metadata),
    // A row the column's default filled (bench seeds) reads as the default.
    keepAlive: stored.keepAlive ?? true,
  });
}

/**
 * The `metadata` column as it comes back: an object when MikroORM or `pg` parsed it, the JSON text
 * when the SQLite driver returns it raw, nothing on a row the column's default filled.
 */
function storedMetadata(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return (value ?? {}) as Record<string, unknown>;
}

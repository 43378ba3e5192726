import { BrowserSession, type SessionProxy, type SessionStatus } from '@browserdeck/domain';
import type { EntityData } from '@mikro-orm/core';
import type { SecretBox } from '../secrets/SecretBox.ts';
import {
  BROWSER_SESSION_JSON_PROPERTIES,
  BROWSER_SESSION_PROPERTIES,
  type StoredBrowserSession,
} from './entities/BrowserSessionSchema.ts';
import { openConnectUrl, openSecretRecord, sealSecretRecord } from './secretRecords.ts';
import { storedJson } from './storedJson.ts';

/**
 * The row for `session`, no sync lease, no upload counted (a new session's; `update` never writes
 * the count). `env`, `proxies` and `connectUrl` are sealed: the proxies carry their credentials and
 * the connect URL the provider's signing key (`?signingKey=…`), which are never stored in plain text
 * (http-api.md §10).
 */
export function toSessionRow(session: BrowserSession, secrets: SecretBox): StoredBrowserSession {
  const { env, connectUrl, proxies, ...state } = session;
  return {
    ...state,
    connectUrl: secrets.seal(connectUrl),
    env: sealSecretRecord(secrets, env),
    proxies: proxies === null ? null : secrets.seal(JSON.stringify(proxies)),
    syncLeaseUntil: null,
    uploadCount: 0,
  };
}

/**
 * The `BrowserSession` (`BrowserSession.restore`) a loaded row holds, property-named (MikroORM's
 * result mapper): every property of the entity schema, a missing one read as
 * null, so a new column needs no line here; then the columns stored differently from the domain:
 * `env`, `proxies` and `connectUrl` opened (a plain connect URL of an older row read as it is), JSON columns
 * parsed where the SQLite driver hands back their text, the sync lease and the upload count left behind.
 */
export function toBrowserSession(
  row: EntityData<StoredBrowserSession> | StoredBrowserSession,
  secrets: SecretBox,
): BrowserSession {
  const stored = row as Record<string, unknown>;
  const state: Record<string, unknown> = Object.fromEntries(
    BROWSER_SESSION_PROPERTIES.map((key) => [key, stored[key] ?? null]),
  );
  for (const key of BROWSER_SESSION_JSON_PROPERTIES) state[key] = storedJson(state[key]);
  const { syncLeaseUntil: _, uploadCount: __, ...session } = state as StoredBrowserSession;
  return BrowserSession.restore({
    ...session,
    status: session.status as SessionStatus,
    connectUrl: openConnectUrl(secrets, session.connectUrl),
    env: openSecretRecord(secrets, session.env),
    proxies: session.proxies ? (JSON.parse(secrets.open(session.proxies)) as SessionProxy[]) : null,
    timeoutSec: Number(session.timeoutSec),
    // PostgreSQL answers bigint as a string where MikroORM does not map it.
    proxyBytes: Number(session.proxyBytes ?? 0),
    metadata: session.metadata ?? {},
    // A row the column's default filled (bench seeds) reads as the default.
    keepAlive: session.keepAlive ?? true,
  });
}

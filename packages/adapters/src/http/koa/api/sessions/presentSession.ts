import type { BrowserSession } from '@browserdeck/domain';
import type { z } from 'zod';
import type { PublicUrls } from '../../kernel/proxy/PublicUrls.ts';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { SessionSchema } from './sessionSchemas.ts';

/** The JSON of a session (http-api.md §5). */
export type SessionJson = z.output<typeof SessionSchema>;

/**
 * A session as the API shows it: camelCase, ISO 8601 UTC timestamps with milliseconds, nulls as
 * null, `userMetadata` holding the script and env the session runs with, and `metadata` the client's
 * own JSON object (the Browserbase API's `userMetadata`). Its URLs are handed out as `urls` says
 * (under the origin a trusted proxy forwards); as stored without them.
 */
export function presentSession(session: BrowserSession, urls?: PublicUrls): SessionJson {
  return {
    id: session.id,
    providerSessionId: session.providerSessionId,
    providerProjectId: session.providerProjectId,
    status: session.status,
    connectUrl: urls ? urls.handOut(session.connectUrl) : session.connectUrl,
    seleniumRemoteUrl:
      urls && session.seleniumRemoteUrl ? urls.handOut(session.seleniumRemoteUrl) : session.seleniumRemoteUrl,
    createdAt: isoTimestamp(session.createdAt),
    updatedAt: isoTimestamp(session.updatedAt),
    startedAt: isoTimestamp(session.startedAt),
    endedAt: session.endedAt ? isoTimestamp(session.endedAt) : null,
    expiresAt: session.expiresAt ? isoTimestamp(session.expiresAt) : null,
    lastSyncedAt: isoTimestamp(session.lastSyncedAt),
    userMetadata: { script: session.script, env: { ...session.env } },
    name: session.name,
    region: session.region,
    timeoutSec: session.timeoutSec,
    extensionId: session.extensionId,
    contextId: session.contextId,
    agentId: session.agentId,
    provider: session.provider,
    metadata: { ...session.metadata },
    keepAlive: session.keepAlive,
    viewport: session.viewport && { ...session.viewport },
    // Never `proxies`: they carry credentials (http-api.md §5).
    proxyBytes: session.proxyBytes,
  };
}

import type { BrowserSession } from '@browserdeck/domain';
import type { z } from 'zod';
import type { SessionSchema } from '../schemas/sessionSchemas.ts';

/** The JSON of a session (SPEC §5). */
export type SessionJson = z.output<typeof SessionSchema>;

/**
 * A session as the API shows it: camelCase, ISO 8601 UTC timestamps with milliseconds, nulls as
 * null, and `userMetadata` holding the script and env the session runs with.
 */
export function presentSession(session: BrowserSession): SessionJson {
  return {
    id: session.id,
    providerSessionId: session.providerSessionId,
    providerProjectId: session.providerProjectId,
    status: session.status,
    connectUrl: session.connectUrl,
    seleniumRemoteUrl: session.seleniumRemoteUrl,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    startedAt: session.startedAt.toISOString(),
    endedAt: session.endedAt?.toISOString() ?? null,
    expiresAt: session.expiresAt?.toISOString() ?? null,
    lastSyncedAt: session.lastSyncedAt.toISOString(),
    userMetadata: { script: session.script, env: { ...session.env } },
    name: session.name,
    region: session.region,
    timeoutSec: session.timeoutSec,
    extensionId: session.extensionId,
    contextId: session.contextId,
    agentId: session.agentId,
    provider: session.provider,
  };
}

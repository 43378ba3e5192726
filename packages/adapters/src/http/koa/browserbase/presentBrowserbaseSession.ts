import type { BrowserSession } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../api/shared/isoTimestamp.ts';
import type { PublicUrls } from '../kernel/proxy/PublicUrls.ts';
import type { BrowserbaseSessionSchema } from './browserbaseResponseSchemas.ts';

/**
 * A session in Browserbase's shape (its SDK's `Session`, plus `connectUrl`, `seleniumRemoteUrl` and
 * `signingKey`, which Browserbase answers on create and read). Same row as http-api.md §5's session.
 * `userMetadata` is the client's own metadata here, not §5's script and env. Its URLs are handed out
 * as `urls` says (under the origin a trusted proxy forwards); as stored without them.
 */
export function presentBrowserbaseSession(
  session: BrowserSession,
  urls?: PublicUrls,
): z.input<typeof BrowserbaseSessionSchema> {
  return {
    id: session.id,
    createdAt: isoTimestamp(session.createdAt),
    updatedAt: isoTimestamp(session.updatedAt),
    projectId: session.projectId,
    startedAt: isoTimestamp(session.startedAt),
    endedAt: session.endedAt ? isoTimestamp(session.endedAt) : null,
    expiresAt: isoTimestamp(
      session.expiresAt ?? new Date(session.startedAt.getTime() + session.timeoutSec * 1000),
    ),
    status: session.status,
    proxyBytes: session.proxyBytes,
    keepAlive: session.keepAlive,
    contextId: session.contextId,
    region: session.region,
    userMetadata: { ...session.metadata },
    connectUrl: urls ? urls.handOut(session.connectUrl) : session.connectUrl,
    seleniumRemoteUrl:
      urls && session.seleniumRemoteUrl ? urls.handOut(session.seleniumRemoteUrl) : session.seleniumRemoteUrl,
    signingKey: signingKeyOf(session.connectUrl),
  };
}

/** The signing key a `connectUrl` carries (`?signingKey=`), as Browserbase hands it out beside it. */
function signingKeyOf(connectUrl: string): string | null {
  try {
    return new URL(connectUrl).searchParams.get('signingKey');
  } catch {
    return null;
  }
}

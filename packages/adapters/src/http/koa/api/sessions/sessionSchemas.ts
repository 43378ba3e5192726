import {
  SESSION_LIST_DEFAULT_LIMIT,
  SESSION_LIST_MAX_LIMIT,
  SESSION_LOGS_DEFAULT_LIMIT,
  SESSION_LOGS_MAX_LIMIT,
  SESSION_METADATA_MAX_BYTES,
  SESSION_NAME_MAX_LENGTH,
  SESSION_STATUSES,
  STATS_INTERVALS,
  STATS_SERIES_MAX_BUCKETS,
} from '@browserdeck/domain';
import { z } from 'zod';
import {
  providerProjectParams,
  queryBoolean,
  queryInteger,
  textRule,
  timestamp,
  uuidParam,
} from '../shared/commonSchemas.ts';
import {
  envField,
  providerProjectIdField,
  providerRefField,
  regionField,
  scriptField,
  timeoutSecField,
} from '../shared/runSettingsSchemas.ts';
import { sessionProxiesField } from '../shared/sessionProxiesField.ts';
import {
  keepAliveField,
  metadataQueryParam,
  sessionMetadataField,
  viewportField,
} from '../shared/sessionSettingsSchemas.ts';

/** `/v1/{provider}/projects/{project_id}/sessions/{session_id}…` */
export const sessionParams = providerProjectParams.extend({ session_id: uuidParam });

/** `POST …/sessions` body: every field optional; with `agentId` the agent's fields are the defaults. */
export const CreateSessionBody = z
  .strictObject({
    projectId: providerProjectIdField.optional().meta({
      description: 'Provider project id; default from configuration (or the agent’s).',
    }),
    name: z
      .string('must be a string')
      .trim()
      .min(1, 'must not be empty')
      .max(SESSION_NAME_MAX_LENGTH, `must be at most ${SESSION_NAME_MAX_LENGTH} characters`)
      .check(textRule('name'))
      .optional()
      .meta({ description: 'Default: the agent’s name, else "Session <createdAt>".' }),
    script: scriptField.optional(),
    env: envField.optional().meta({ description: 'Merged over the agent’s envVars.' }),
    region: regionField.optional(),
    timeoutSec: timeoutSecField.optional(),
    extensionId: providerRefField.optional(),
    contextId: providerRefField.optional(),
    agentId: z
      .guid('must be a UUID or null')
      .toLowerCase()
      .nullable()
      .optional()
      .meta({ description: 'An agent of this project whose fields are the defaults.' }),
    metadata: sessionMetadataField.optional().meta({
      description: `The client’s own JSON object, at most ${SESSION_METADATA_MAX_BYTES} bytes; filter the list on it with q. Default {}.`,
    }),
    keepAlive: keepAliveField.optional().meta({
      description:
        'Default true: the session lives until released or timed out. false: it ends 2 s after its last CDP client disconnects.',
    }),
    viewport: viewportField.optional(),
    proxies: sessionProxiesField.optional(),
    record: z.boolean('must be a boolean').optional().meta({
      description:
        'false: the session is not recorded (SPEC §18). Default: the server’s RECORD_SESSIONS (on unless switched off).',
    }),
  })
  .optional()
  .transform((body) => body ?? {});

/**
 * The optional `Idempotency-Key` header: 1 to 255 printable ASCII characters. A retry with the same
 * key and body within 24 h answers the first response.
 */
export const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x20-\x7e]{1,255}$/, 'must be 1 to 255 printable ASCII characters')
    .optional()
    .meta({ description: 'Makes the create safe to retry for 24 h (same key and body → same answer).' }),
});

/** `GET …/sessions` query. */
export const ListSessionsQuery = z.object({
  status: z.enum(SESSION_STATUSES, { message: `must be one of ${SESSION_STATUSES.join(', ')}` }).optional(),
  q: metadataQueryParam.optional(),
  limit: queryInteger(1, SESSION_LIST_MAX_LIMIT)
    .optional()
    .meta({ description: `Page size, default ${SESSION_LIST_DEFAULT_LIMIT}.` }),
  offset: queryInteger(0).optional().meta({ description: 'Sessions to skip, default 0.' }),
});

/** `GET …/sessions/{session_id}/logs` query. */
export const SessionLogsQuery = z.object({
  cursor: z
    .string('must be given once')
    .optional()
    .meta({ description: 'The `nextCursor` of the previous page; absent for the first page.' }),
  limit: queryInteger(1, SESSION_LOGS_MAX_LIMIT)
    .optional()
    .meta({ description: `Page size, default ${SESSION_LOGS_DEFAULT_LIMIT}.` }),
});

/** A `from` or `to` of the stats query: ISO 8601 with `Z` or an offset, milliseconds optional. */
const statsTime = (description: string) =>
  z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date and time with a time zone' })
    .optional()
    .meta({ description });

/** `GET …/sessions/dashboard/stats` query: with `interval`, the answer adds `series` (http-api.md §14). */
export const SessionStatsQuery = z.object({
  interval: z
    .enum(STATS_INTERVALS, { message: `must be one of ${STATS_INTERVALS.join(', ')}` })
    .optional()
    .meta({ description: 'Adds `series`, one item per UTC hour or day.' }),
  from: statsTime(
    `Only with interval. The series starts at the UTC hour or day holding it; default: to − 24 h (hour) or − 30 days (day). At most ${STATS_SERIES_MAX_BUCKETS} buckets.`,
  ),
  to: statsTime('Only with interval. Exclusive: the last bucket starts before it; default: now.'),
});

const nullableTimestamp = timestamp.nullable();

/** A session as create, get, release and list answer it (http-api.md §5). */
export const SessionSchema = z
  .object({
    id: z.string(),
    providerSessionId: z.string(),
    providerProjectId: z.string(),
    status: z.enum(SESSION_STATUSES),
    connectUrl: z.string().meta({ description: 'CDP WebSocket URL.' }),
    seleniumRemoteUrl: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    startedAt: timestamp,
    endedAt: nullableTimestamp.meta({ description: 'null while the session is active.' }),
    expiresAt: nullableTimestamp,
    lastSyncedAt: timestamp.meta({ description: 'When the provider last confirmed this state.' }),
    userMetadata: z.object({ script: z.string(), env: z.record(z.string(), z.string()) }),
    name: z.string(),
    region: z.string(),
    timeoutSec: z.int(),
    extensionId: z.string().nullable(),
    contextId: z.string().nullable(),
    agentId: z.string().nullable(),
    provider: z.string().meta({ description: 'The provider’s name: local, browserbase.' }),
    metadata: z.record(z.string(), z.unknown()).meta({
      description: 'The client’s own JSON object, as created (the Browserbase API’s userMetadata).',
    }),
    keepAlive: z
      .boolean()
      .meta({ description: 'false: the session ends when its last CDP client disconnects.' }),
    viewport: z
      .object({ width: z.int(), height: z.int() })
      .nullable()
      .meta({ description: 'The window size asked for at create; null: the provider’s default.' }),
    proxyBytes: z.int().nonnegative().meta({
      description:
        'Bytes in and out through the session’s proxies so far (the egress proxy’s count; Browserbase’s own on that provider).',
    }),
  })
  .meta({ id: 'Session' });

/** `GET …/sessions` response, newest first. */
export const SessionPageSchema = z
  .object({
    sessions: z.array(SessionSchema),
    total: z.int().meta({ description: 'Sessions matching the filter, over all pages.' }),
    limit: z.int(),
    offset: z.int(),
  })
  .meta({ id: 'SessionPage' });

/** One recorded CDP event (Browserbase's log shape). */
export const LogEntrySchema = z
  .object({
    timestamp: z.number().meta({ description: 'Milliseconds since the Unix epoch.' }),
    method: z.string(),
    pageId: z.number(),
    frameId: z.string().optional(),
    loaderId: z.string().optional(),
    request: z.record(z.string(), z.unknown()).optional(),
    response: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'LogEntry' });

/** `GET …/sessions/{session_id}/logs` response. */
export const SessionLogsSchema = z
  .object({
    logs: z.array(LogEntrySchema),
    nextCursor: z.string().nullable().meta({ description: 'null on the last page.' }),
  })
  .meta({ id: 'SessionLogPage' });

/** One bucket of the stats series (http-api.md §14). */
export const StatsBucketSchema = z.object({
  start: timestamp.meta({ description: 'The bucket’s first instant, on a UTC hour or day.' }),
  created: z.int().meta({ description: 'Sessions created in the bucket.' }),
  completed: z.int().meta({ description: 'Sessions that ended COMPLETED in the bucket (by endedAt).' }),
  errored: z.int().meta({ description: 'Sessions that ended ERROR in the bucket.' }),
  timedOut: z.int().meta({ description: 'Sessions that ended TIMED_OUT in the bucket.' }),
  browserSec: z.number().meta({ description: 'Browser time inside the bucket, running sessions up to now.' }),
  proxyBytes: z
    .int()
    .nonnegative()
    .meta({ description: 'Proxy bytes in and out of the sessions created in the bucket.' }),
});

/** `GET …/sessions/dashboard/stats` response. */
export const SessionStatsSchema = z
  .object({
    total: z.int(),
    byStatus: z.object(
      Object.fromEntries(SESSION_STATUSES.map((s) => [s, z.int()])) as Record<
        (typeof SESSION_STATUSES)[number],
        z.ZodInt
      >,
    ),
    createdLast24h: z.int(),
    avgDurationSec: z.number().meta({ description: 'Mean duration of ended sessions; 0 when none.' }),
    totalBrowserSec: z
      .number()
      .meta({ description: 'Browser time of all sessions, running ones up to now.' }),
    totalProxyBytes: z
      .int()
      .nonnegative()
      .meta({ description: 'Proxy bytes in and out of all sessions (the sum of their proxyBytes).' }),
    series: z.array(StatsBucketSchema).optional().meta({
      description: 'Only with interval: every bucket from `from` to `to`, oldest first, empty ones as zeros.',
    }),
  })
  .meta({ id: 'SessionStats' });

/** One tab in `SessionLiveUrlsSchema`. */
const LivePageSchema = z.object({
  id: z.string().meta({ description: 'The tab’s CDP target id.' }),
  url: z.string(),
  title: z.string(),
  faviconUrl: z.string().meta({ description: 'Empty when the tab has none we know of.' }),
  debuggerUrl: z.string().meta({ description: 'The live view of this tab.' }),
  debuggerFullscreenUrl: z.string().meta({ description: 'The same, without the tab bar.' }),
});

/** `GET …/sessions/{session_id}/debug` query (http-api.md §14). */
export const SessionLiveUrlsQuery = z.object({
  readOnly: queryBoolean.optional().meta({
    description:
      'true: the URLs’ token only watches (input is dropped), whatever the URL says; default false.',
  }),
});

/** `GET …/sessions/{session_id}/har` query (SPEC §18). */
export const SessionHarQuery = z.object({
  sensitive: queryBoolean.optional().meta({
    description:
      'true: `Authorization`, `Cookie` and `Set-Cookie` values as sent (needs the developer role); default ' +
      'false, redacted. Proxy credentials never appear.',
  }),
});

/** `GET …/sessions/{session_id}/har` response: HAR 1.2 (`pages`, `entries`; custom fields start with `_`). */
export const SessionHarSchema = z
  .object({
    log: z
      .looseObject({
        version: z.string(),
        creator: z.looseObject({ name: z.string(), version: z.string() }),
        pages: z.array(z.looseObject({ id: z.string(), startedDateTime: z.string(), title: z.string() })),
        entries: z.array(
          z.looseObject({
            pageref: z.string().optional(),
            startedDateTime: z.string(),
            time: z.number(),
            request: z.looseObject({ method: z.string(), url: z.string() }),
            response: z.looseObject({ status: z.number() }),
          }),
        ),
        _capped: z.boolean().meta({ description: 'The per-session bound stopped the capture.' }),
        _ended: z.boolean().meta({ description: 'The session ended and its whole capture is in.' }),
      })
      .meta({ id: 'HarLog' }),
  })
  .meta({ id: 'Har' });

/** `GET …/sessions/{session_id}/debug` response (http-api.md §14; Browserbase's `SessionLiveURLs`). */
export const SessionLiveUrlsSchema = z
  .object({
    debuggerUrl: z.string().meta({ description: 'The live view, with a tab bar.' }),
    debuggerFullscreenUrl: z.string().meta({
      description:
        'The live view alone, for embedding; append `&readOnly=true` to only watch (or ask with `readOnly=true` for a token that only watches).',
    }),
    wsUrl: z
      .string()
      .meta({ description: 'A CDP WebSocket URL of the browser (Browserdeck’s: the connectUrl).' }),
    pages: z.array(LivePageSchema),
  })
  .meta({ id: 'SessionLiveUrls' });

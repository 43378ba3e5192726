import { type ProviderSessionSnapshot, SESSION_STATUSES } from '@browserdeck/domain';
import { z } from 'zod';

/** A provider's snapshot of a session as one instance answers it to another (times as ISO strings). */
export const WireSnapshotSchema = z.object({
  providerSessionId: z.string(),
  providerProjectId: z.string(),
  status: z.enum(SESSION_STATUSES),
  connectUrl: z.string(),
  seleniumRemoteUrl: z.string().nullable(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  instanceId: z.string().nullable().optional(),
  proxyBytes: z.number().int().nonnegative().optional(),
});

/** The answer about one session: null when the holder no longer knows it. */
export const SnapshotAnswerSchema = z.object({ snapshot: WireSnapshotSchema.nullable() });

/** One CDP log entry of a session (`SessionLogEntry`). */
export const WireLogEntrySchema = z.object({
  timestamp: z.number(),
  method: z.string(),
  pageId: z.number(),
  frameId: z.string().optional(),
  loaderId: z.string().optional(),
  request: z
    .object({
      timestamp: z.number().optional(),
      params: z.record(z.string(), z.unknown()).optional(),
      rawBody: z.string().optional(),
    })
    .optional(),
  response: z
    .object({
      timestamp: z.number().optional(),
      result: z.record(z.string(), z.unknown()).optional(),
      rawBody: z.string().optional(),
    })
    .optional(),
});

/** A session's log entries, oldest first. */
export const LogsAnswerSchema = z.object({ entries: z.array(WireLogEntrySchema) });

/** The tabs of a session's browser, as the holder's live-view hub sees them; null when it cannot reach it. */
export const PagesAnswerSchema = z.object({
  pages: z
    .array(z.object({ id: z.string(), url: z.string(), title: z.string(), faviconUrl: z.string() }))
    .nullable(),
});

/** Where the holder put an uploaded file; null when it no longer knows the session. */
export const UploadAnswerSchema = z.object({
  file: z.object({ name: z.string(), size: z.number().int().nonnegative(), path: z.string() }).nullable(),
});

/** Who answers at an instance's address. */
export const PingAnswerSchema = z.object({ id: z.string(), bootId: z.string() });

/** A snapshot as it travels. */
export function toWireSnapshot(snapshot: ProviderSessionSnapshot): z.infer<typeof WireSnapshotSchema> {
  return {
    ...snapshot,
    startedAt: snapshot.startedAt.toISOString(),
    endedAt: snapshot.endedAt?.toISOString() ?? null,
    expiresAt: snapshot.expiresAt?.toISOString() ?? null,
  };
}

/** A snapshot as it arrived, with its times as dates again. */
export function fromWireSnapshot(wire: z.infer<typeof WireSnapshotSchema>): ProviderSessionSnapshot {
  return {
    ...wire,
    startedAt: new Date(wire.startedAt),
    endedAt: wire.endedAt === null ? null : new Date(wire.endedAt),
    expiresAt: wire.expiresAt === null ? null : new Date(wire.expiresAt),
  };
}

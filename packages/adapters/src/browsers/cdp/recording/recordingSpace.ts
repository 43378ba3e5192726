import type { StoredBlobInfo } from '../../shared-state/BlobStore.ts';
import { RECORDINGS_PREFIX } from './recordingStore.ts';

/** One session's recording as its blobs say: whose, how large, when last written. */
export interface RecordingUsage {
  readonly providerSessionId: string;
  readonly ownerId: string | null;
  readonly bytes: number;
  readonly lastWrite: Date;
}

/** The key that says whose a recording is: `recordings/<providerSessionId>/owner/<ownerId>` (empty). */
export function ownerKey(providerSessionId: string, ownerId: string): string {
  return `${RECORDINGS_PREFIX}${providerSessionId}/owner/${encodeURIComponent(ownerId)}`;
}

/** Every recording under `recordings/`, from the store's listing (no bytes read). */
export function recordingsOf(blobs: readonly StoredBlobInfo[]): RecordingUsage[] {
  const byId = new Map<string, { ownerId: string | null; bytes: number; lastWrite: Date }>();
  for (const blob of blobs) {
    const [id, kind, owner] = blob.key.slice(RECORDINGS_PREFIX.length).split('/');
    if (!id) continue;
    const usage = byId.get(id) ?? { ownerId: null, bytes: 0, lastWrite: blob.updatedAt };
    usage.bytes += blob.bytes;
    if (blob.updatedAt > usage.lastWrite) usage.lastWrite = blob.updatedAt;
    if (kind === 'owner' && owner) usage.ownerId = decodeURIComponent(owner);
    byId.set(id, usage);
  }
  return [...byId].map(([providerSessionId, usage]) => ({ providerSessionId, ...usage }));
}

/** What a new recording of `ownerId` may take, and which of that owner's recordings make room for it. */
export interface RecordingSpace {
  /** The new recording's bound: at most the per-session bound, 0 when there is no room at all. */
  readonly maxBytes: number;
  /** The owner's oldest recordings to remove first (never another owner's). */
  readonly evict: readonly string[];
}

/**
 * Room for a new recording of `ownerId` (SPEC §18): each account keeps at most `perOwnerBytes` of
 * recordings, all together at most `totalBytes`. The new one may take up to `perSessionBytes`; to
 * find it room, the owner's own oldest recordings go (oldest last write first, never one still
 * being written: `active`), and never another account's, so one account cannot evict another's.
 * What the total lacks even then is taken off the new recording's bound (0: it keeps nothing).
 */
export function planRecordingSpace(
  recordings: readonly RecordingUsage[],
  request: {
    ownerId: string;
    perSessionBytes: number;
    perOwnerBytes: number;
    totalBytes: number;
    active: ReadonlySet<string>;
  },
): RecordingSpace {
  const wanted = Math.min(request.perSessionBytes, request.perOwnerBytes);
  const own = recordings
    .filter((r) => r.ownerId === request.ownerId)
    .sort((a, b) => a.lastWrite.getTime() - b.lastWrite.getTime());
  let ownBytes = own.reduce((sum, r) => sum + r.bytes, 0);
  let totalBytes = recordings.reduce((sum, r) => sum + r.bytes, 0);
  const evict: string[] = [];
  for (const recording of own) {
    if (ownBytes + wanted <= request.perOwnerBytes && totalBytes + wanted <= request.totalBytes) break;
    if (request.active.has(recording.providerSessionId)) continue;
    evict.push(recording.providerSessionId);
    ownBytes -= recording.bytes;
    totalBytes -= recording.bytes;
  }
  const room = Math.min(wanted, request.perOwnerBytes - ownBytes, request.totalBytes - totalBytes);
  return { maxBytes: Math.max(0, room), evict };
}

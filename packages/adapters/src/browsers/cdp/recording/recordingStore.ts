import type { RecordingState } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import type { VideoFrame } from './makeVideo.ts';

/** Where sessions' recordings are in the blob store: `recordings/<providerSessionId>/…`. */
export const RECORDINGS_PREFIX = 'recordings/';

/** One tab of a recording, as its manifest keeps it. */
export interface ManifestPage {
  readonly pageId: string;
  url: string;
  title: string;
  /** When the tab opened, then the moment of its first frame: its video's 0 s. */
  startTimeMs: number;
  endTimeMs: number | null;
  width: number;
  height: number;
  frames: number;
  bytes: number;
  /** Frame chunks `…/<pageId>/frames/0` … `chunks - 1`, in order. */
  chunks: number;
  /** The files of its video (`video.mp4`, `index.m3u8`, `seg_000.ts`…), once made. */
  files: string[];
}

/** A recording's manifest (`recordings/<id>/manifest`), written at the start and after each chunk. */
export interface RecordingManifest {
  state: RecordingState;
  bytes: number;
  capped: boolean;
  error: string | null;
  completedAt: string | null;
  /** When the session's recording ended (ms since the epoch); null while it runs. */
  endedAtMs: number | null;
  pages: ManifestPage[];
}

export function manifestKey(providerSessionId: string): string {
  return `${RECORDINGS_PREFIX}${providerSessionId}/manifest`;
}

export function downloadsKey(providerSessionId: string): string {
  return `${RECORDINGS_PREFIX}${providerSessionId}/downloads`;
}

export function frameChunkKey(providerSessionId: string, pageId: string, chunk: number): string {
  return `${RECORDINGS_PREFIX}${providerSessionId}/${pageId}/frames/${chunk}`;
}

export function videoFileKey(providerSessionId: string, pageId: string, file: string): string {
  return `${RECORDINGS_PREFIX}${providerSessionId}/${pageId}/video/${file}`;
}

export async function readManifest(
  blobs: BlobStore,
  providerSessionId: string,
): Promise<RecordingManifest | null> {
  const bytes = await blobs.get(manifestKey(providerSessionId));
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as RecordingManifest) : null;
}

export function writeManifest(
  blobs: BlobStore,
  providerSessionId: string,
  manifest: RecordingManifest,
): Promise<void> {
  return blobs.put(manifestKey(providerSessionId), Buffer.from(JSON.stringify(manifest)));
}

/** The bytes before each frame's JPEG in a chunk: its timestamp (float64, ms) and length (uint32). */
const FRAME_HEADER_BYTES = 12;

/** A frame as a chunk holds it: its header, then the JPEG. */
export function encodeFrame(timestampMs: number, jpeg: Uint8Array): Buffer {
  const record = Buffer.allocUnsafe(FRAME_HEADER_BYTES + jpeg.byteLength);
  record.writeDoubleLE(timestampMs, 0);
  record.writeUInt32LE(jpeg.byteLength, 8);
  record.set(jpeg, FRAME_HEADER_BYTES);
  return record;
}

/** A tab's frames from the blob store, chunk by chunk (one chunk in memory at a time). */
export async function* readFrames(
  blobs: BlobStore,
  providerSessionId: string,
  page: Pick<ManifestPage, 'pageId' | 'chunks'>,
): AsyncIterable<VideoFrame> {
  for (let chunk = 0; chunk < page.chunks; chunk++) {
    const bytes = await blobs.get(frameChunkKey(providerSessionId, page.pageId, chunk));
    if (!bytes) continue;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at + FRAME_HEADER_BYTES <= buffer.byteLength; ) {
      const timestampMs = buffer.readDoubleLE(at);
      const length = buffer.readUInt32LE(at + 8);
      const start = at + FRAME_HEADER_BYTES;
      yield { timestampMs, jpeg: buffer.subarray(start, start + length) };
      at = start + length;
    }
  }
}

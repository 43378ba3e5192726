import type { FrameMetadata } from './FrameMetadata.ts';

/**
 * A frame as the viewer receives it: one binary WebSocket message, a 4-byte big-endian length, that
 * many bytes of JSON header (`{ pageId, ...FrameMetadata }`), then the JPEG. Binary, not JSON with
 * base64: a third smaller on the wire, and the page hands the bytes to `createImageBitmap` without
 * decoding base64. The browser's base64 is decoded once here, into the one buffer every viewer of
 * the tab is sent.
 */
export function encodeFrame(pageId: string, metadata: FrameMetadata, base64Jpeg: string): Buffer {
  const header = Buffer.from(JSON.stringify({ pageId, ...metadata }), 'utf8');
  const frame = Buffer.allocUnsafe(4 + header.length + Buffer.byteLength(base64Jpeg, 'base64'));
  frame.writeUInt32BE(header.length, 0);
  header.copy(frame, 4);
  const written = frame.write(base64Jpeg, 4 + header.length, 'base64');
  return frame.subarray(0, 4 + header.length + written);
}

/** Reads a frame message back (tests and the benchmark): its header and the JPEG bytes. */
export function decodeFrame(message: Buffer): { header: FrameMetadata & { pageId: string }; jpeg: Buffer } {
  const length = message.readUInt32BE(0);
  const header = JSON.parse(message.subarray(4, 4 + length).toString('utf8')) as FrameMetadata & {
    pageId: string;
  };
  return { header, jpeg: message.subarray(4 + length) };
}

import type { FrameMetadata } from './FrameMetadata.ts';
import type { FramePosition } from './parseViewerMessage.ts';

/**
 * Maps a position on a screencast frame (fractions of the image) to the coordinates
 * `Input.dispatchMouseEvent` takes: CSS pixels relative to the page's viewport. The frame shows the
 * whole device screen (`deviceWidth` × `deviceHeight` DIP, scaled to the frame's size), the page's
 * viewport starting `offsetTop` DIP down it; as in Chrome DevTools' screencast, the pinch zoom
 * (`pageScaleFactor`) is not divided out. The result is clamped into the viewport and rounded to
 * hundredths.
 */
export function toPagePoint(position: FramePosition, metadata: FrameMetadata): { x: number; y: number } {
  const viewportHeight = Math.max(0, metadata.deviceHeight - metadata.offsetTop);
  const x = clamp(position.x * metadata.deviceWidth, metadata.deviceWidth);
  const y = clamp(position.y * metadata.deviceHeight - metadata.offsetTop, viewportHeight);
  return { x: round(x), y: round(y) };
}

/** Within [0, size - 0.01]: the far edge itself is outside the viewport. */
function clamp(value: number, size: number): number {
  return Math.min(Math.max(value, 0), Math.max(0, size - 0.01));
}

const round = (value: number): number => Math.round(value * 100) / 100;

/**
 * CDP's `Page.ScreencastFrameMetadata`: the device screen a frame shows (DIP), where the page's
 * content starts on it (`offsetTop`), its pinch zoom and its scroll position (CSS pixels), and when
 * the frame was drawn (seconds since the epoch).
 */
export interface FrameMetadata {
  readonly deviceWidth: number;
  readonly deviceHeight: number;
  readonly offsetTop: number;
  readonly pageScaleFactor: number;
  readonly scrollOffsetX: number;
  readonly scrollOffsetY: number;
  /** Absent in frames of some browsers; then 0. */
  readonly timestamp: number;
}

const numberOr = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** Reads a `Page.screencastFrame` event's `metadata`; null when it has no usable screen size. */
export function readFrameMetadata(raw: unknown): FrameMetadata | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  const deviceWidth = numberOr(m.deviceWidth, 0);
  const deviceHeight = numberOr(m.deviceHeight, 0);
  if (deviceWidth <= 0 || deviceHeight <= 0) return null;
  return {
    deviceWidth,
    deviceHeight,
    offsetTop: numberOr(m.offsetTop, 0),
    pageScaleFactor: numberOr(m.pageScaleFactor, 1),
    scrollOffsetX: numberOr(m.scrollOffsetX, 0),
    scrollOffsetY: numberOr(m.scrollOffsetY, 0),
    timestamp: numberOr(m.timestamp, 0),
  };
}

/**
 * The inspector's one clock (SPEC §18): wall-clock ms since the epoch. `cursorMs` is the moment the
 * video shows (null before it plays); `seek` moves the video there, from a request or a log line.
 */
export interface InspectorClock {
  readonly cursorMs: number | null;
  seek(wallMs: number): void;
}

/**
 * The index of the item the inspector's cursor has reached: the last one (in list order) whose
 * moment is at or before `cursorMs`; undefined before the first, or with no cursor.
 */
export function atCursor<T>(
  items: readonly T[],
  momentOf: (item: T) => number,
  cursorMs: number | null,
): number | undefined {
  if (cursorMs === null) return undefined;
  let found: number | undefined;
  items.forEach((item, i) => {
    if (momentOf(item) <= cursorMs) found = i;
  });
  return found;
}

import { ValidationError } from '@browserdeck/domain';

/** Where a keyset page starts: the last row's time and id. */
export interface PagePosition {
  readonly at: Date;
  readonly id: string;
}

/**
 * An opaque cursor for `position`: `<epoch ms>.<id>`, URL-encoded (the MikroORM stores base64url the
 * same text; clients treat both as opaque).
 */
export function encodePageCursor(position: PagePosition): string {
  return encodeURIComponent(`${position.at.getTime()}.${position.id}`);
}

/** The position `cursor` holds; a `ValidationError` on `cursor` when it is none this made. */
export function decodePageCursor(cursor: string): PagePosition {
  let text = '';
  try {
    text = decodeURIComponent(cursor);
  } catch {
    // not a cursor this made
  }
  const match = /^(\d{1,15})\.(.{1,200})$/s.exec(text);
  if (!match?.[1] || !match[2]) throw ValidationError.field('cursor', 'is not a cursor this list gave');
  return { at: new Date(Number(match[1])), id: match[2] };
}

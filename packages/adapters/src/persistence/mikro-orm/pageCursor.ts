import { ValidationError } from '@browserdeck/domain';
import { isUuid } from './databaseErrors.ts';

/** Where a keyset page starts: the last row's time and id. */
export interface PagePosition {
  readonly at: Date;
  readonly id: string;
}

/**
 * An opaque cursor for `position`: base64url of `<epoch ms>.<id>`, the keyset (`created_at`, `id`)
 * or (`at`, `id`) of a page's last row, so the next page is one indexed range read.
 */
export function encodePageCursor(position: PagePosition): string {
  return Buffer.from(`${position.at.getTime()}.${position.id}`).toString('base64url');
}

/** The position `cursor` holds; a `ValidationError` on `cursor` when it is none `encodePageCursor` made. */
export function decodePageCursor(cursor: string): PagePosition {
  const match = /^(\d{1,15})\.(.+)$/s.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1] || !match[2] || !isUuid(match[2]))
    throw ValidationError.field('cursor', 'is not a cursor this list gave');
  return { at: new Date(Number(match[1])), id: match[2] };
}

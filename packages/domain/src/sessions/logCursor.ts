import { ValidationError } from '../shared/DomainError.ts';

/** FNV-1a, 32 bit: a checksum that makes cursors opaque and ties them to one session. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** An opaque cursor for position `offset` in the session's logs. */
export function encodeLogCursor(sessionId: string, offset: number): string {
  return `${offset.toString(36)}.${fnv1a(`${sessionId}:${offset}`).toString(36)}`;
}

/** The offset a cursor stands for; a forged or foreign cursor is a `validation_failed`. */
export function decodeLogCursor(sessionId: string, cursor: string): number {
  const match = /^([0-9a-z]{1,10})\.([0-9a-z]{1,8})$/.exec(cursor);
  const offset = match ? Number.parseInt(match[1] as string, 36) : Number.NaN;
  if (!match || !Number.isSafeInteger(offset) || encodeLogCursor(sessionId, offset) !== cursor) {
    throw ValidationError.field('cursor', 'is not a cursor this endpoint gave out');
  }
  return offset;
}

import { ValidationError } from '../shared/DomainError.ts';

/**
 * Signs the text of a log cursor: a keyed MAC in a server (`SecretBox.signer`), so a cursor cannot
 * be forged, only handed back. Any deterministic string of URL-safe characters will do.
 */
export interface CursorSigner {
  sign(text: string): string;
}

/** The longest tag kept from a signature (22 hex digits: 88 bits). */
const TAG_LENGTH = 22;

/**
 * The fallback for hosts that configure no signer: an unkeyed FNV-1a checksum. It ties a cursor to
 * its session and catches tampering, but anyone who knows the scheme can compute one.
 */
export const CHECKSUM_CURSOR_SIGNER: CursorSigner = {
  sign(text) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(36);
  },
};

/** An opaque cursor for position `offset` in the session's logs. */
export function encodeLogCursor(
  sessionId: string,
  offset: number,
  signer: CursorSigner = CHECKSUM_CURSOR_SIGNER,
): string {
  return `${offset.toString(36)}.${signer.sign(`log-cursor:${sessionId}:${offset}`).slice(0, TAG_LENGTH)}`;
}

/** The offset a cursor stands for; a forged or foreign cursor is a `validation_failed`. */
export function decodeLogCursor(
  sessionId: string,
  cursor: string,
  signer: CursorSigner = CHECKSUM_CURSOR_SIGNER,
): number {
  const match = /^([0-9a-z]{1,10})\.([0-9A-Za-z_-]{1,22})$/.exec(cursor);
  const offset = match ? Number.parseInt(match[1] as string, 36) : Number.NaN;
  if (!match || !Number.isSafeInteger(offset) || encodeLogCursor(sessionId, offset, signer) !== cursor) {
    throw ValidationError.field('cursor', 'is not a cursor this endpoint gave out');
  }
  return offset;
}

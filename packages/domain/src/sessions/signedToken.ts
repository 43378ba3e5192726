import type { CursorSigner } from './logCursor.ts';

/** Tokens longer than this are refused unread. */
const MAX_TOKEN_LENGTH = 1024;
/** The longest tag kept from a signature (32 hex digits of an HMAC: 128 bits). */
const TAG_LENGTH = 32;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TOKEN = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/** What a signed token carries: short fields, since it travels in URLs. */
export type SignedTokenFields = Readonly<Record<string, string | number | boolean>>;

/**
 * A token only this server can make: `base64url(JSON).tag`, the tag a keyed signature of `purpose`
 * and the JSON, so a token made for one purpose (a live-view link, a recording download) never
 * passes for another.
 */
export function issueSignedToken(signer: CursorSigner, purpose: string, fields: SignedTokenFields): string {
  const payload = toBase64Url(escapeNonAscii(JSON.stringify(fields)));
  return `${payload}.${tagOf(signer, purpose, payload)}`;
}

/**
 * The fields of a token this server signed for `purpose`; null for anything else (garbage, a
 * changed payload or tag, another key's or another purpose's token). The caller checks the fields.
 */
export function readSignedToken(
  signer: CursorSigner,
  purpose: string,
  token: string,
): Record<string, unknown> | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, payload, tag] = match as unknown as [string, string, string];
  if (!sameText(tag, tagOf(signer, purpose, payload))) return null;
  const json = fromBase64Url(payload);
  if (json === null) return null;
  try {
    const fields: unknown = JSON.parse(json);
    return typeof fields === 'object' && fields !== null && !Array.isArray(fields)
      ? (fields as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function tagOf(signer: CursorSigner, purpose: string, payload: string): string {
  return signer.sign(`${purpose}:${payload}`).slice(0, TAG_LENGTH);
}

/**
 * Whether two strings are equal, looking at every character of equal-length ones (no early exit),
 * so the time taken says nothing about how much of a guessed tag was right.
 */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** JSON with every non-ASCII character as a `\u` escape, so each character is one byte. */
function escapeNonAscii(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Base64url without padding of an ASCII string (the domain has no Buffer or btoa). */
function toBase64Url(ascii: string): string {
  let out = '';
  for (let i = 0; i < ascii.length; i += 3) {
    const n =
      (ascii.charCodeAt(i) << 16) | ((ascii.charCodeAt(i + 1) || 0) << 8) | (ascii.charCodeAt(i + 2) || 0);
    const chars = Math.min(4, Math.ceil(((ascii.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += BASE64URL[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** The ASCII string a base64url text (no padding) stands for; null when it is not one. */
function fromBase64Url(text: string): string | null {
  if (text.length % 4 === 1) return null;
  let out = '';
  for (let i = 0; i < text.length; i += 4) {
    const chunk = text.slice(i, i + 4);
    let n = 0;
    for (let k = 0; k < 4; k++) n = (n << 6) | (k < chunk.length ? BASE64URL.indexOf(chunk[k] as string) : 0);
    const bytes = chunk.length - 1;
    for (let k = 0; k < bytes; k++) {
      const code = (n >> (16 - 8 * k)) & 255;
      if (code > 127) return null;
      out += String.fromCharCode(code);
    }
  }
  return out;
}

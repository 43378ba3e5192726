import type { CursorSigner } from './logCursor.ts';

/**
 * The credential a live-view token was made for (http-api.md §14): the viewer keeps working only
 * while it holds. `signIn`: a user's sign-in session (the access token's), ended by signing out;
 * `apiKey`: a project API key, ended by revocation or expiry; `owner`: an in-process host acting for
 * the project's owner with no credential of its own (only the project is re-checked).
 */
export type LiveViewCredential =
  | { readonly kind: 'signIn'; readonly signInId: string }
  | { readonly kind: 'apiKey'; readonly keyId: string }
  | { readonly kind: 'owner' };

/** What a live-view token grants: watching (and, unless `readOnly`, driving) one session until `expiresAt`. */
export interface LiveViewTokenClaims {
  readonly sessionId: string;
  /** The session's project: the token is checked without a caller, so it says where to look. */
  readonly projectId: string;
  /**
   * The user the token acts for (the signed-in user, or the user an in-process host acts for; for an
   * API key, the project's owner): their membership, role and sign-in are re-checked (SPEC §17).
   */
  readonly userId: string;
  /** What made the token; it stops working when that credential does. */
  readonly credential: LiveViewCredential;
  /** True: the viewer's input is dropped, whatever its URL says. */
  readonly readOnly: boolean;
  /** Whole seconds; the token is refused from then on. */
  readonly expiresAt: Date;
}

/** Tokens longer than this are refused unread. */
const MAX_TOKEN_LENGTH = 1024;
/** The longest tag kept from a signature (32 hex digits of an HMAC: 128 bits). */
const TAG_LENGTH = 32;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TOKEN = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/**
 * A token for the live-view page and its WebSocket (http-api.md §14): `base64url(JSON).tag`, the tag a
 * keyed signature of the JSON, so only the server can make one. It is neither the user's access
 * token nor the session's connect key, and names one session.
 */
export function issueLiveViewToken(signer: CursorSigner, claims: LiveViewTokenClaims): string {
  const json = JSON.stringify({
    s: claims.sessionId,
    p: claims.projectId,
    o: claims.userId,
    c: encodeCredential(claims.credential),
    r: claims.readOnly,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
  });
  const payload = toBase64Url(escapeNonAscii(json));
  return `${payload}.${tagOf(signer, payload)}`;
}

/**
 * The claims of a token this server signed; null for anything else (garbage, a changed payload or
 * tag, another key's token), and for a token of the earlier format, which names no owner, credential
 * or read-only flag: such a token would grant more than it says. Expiry is the caller's to check.
 */
export function readLiveViewToken(signer: CursorSigner, token: string): LiveViewTokenClaims | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, payload, tag] = match as unknown as [string, string, string];
  if (!sameText(tag, tagOf(signer, payload))) return null;
  const json = fromBase64Url(payload);
  if (json === null) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(json);
  } catch {
    return null;
  }
  const { s, p, o, c, r, e } = (claims ?? {}) as Record<string, unknown>;
  if (typeof s !== 'string' || typeof p !== 'string' || typeof o !== 'string') return null;
  if (typeof r !== 'boolean' || !Number.isSafeInteger(e)) return null;
  const credential = decodeCredential(c);
  if (!credential) return null;
  return {
    sessionId: s,
    projectId: p,
    userId: o,
    credential,
    readOnly: r,
    expiresAt: new Date((e as number) * 1000),
  };
}

/** `s:<sign-in id>`, `k:<key id>` or `o`: short, since the token travels in URLs. */
function encodeCredential(credential: LiveViewCredential): string {
  if (credential.kind === 'signIn') return `s:${credential.signInId}`;
  if (credential.kind === 'apiKey') return `k:${credential.keyId}`;
  return 'o';
}

function decodeCredential(value: unknown): LiveViewCredential | null {
  if (value === 'o') return { kind: 'owner' };
  if (typeof value !== 'string' || value.length < 3 || value[1] !== ':') return null;
  const id = value.slice(2);
  if (value[0] === 's') return { kind: 'signIn', signInId: id };
  if (value[0] === 'k') return { kind: 'apiKey', keyId: id };
  return null;
}

function tagOf(signer: CursorSigner, payload: string): string {
  return signer.sign(`live-view-token:${payload}`).slice(0, TAG_LENGTH);
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

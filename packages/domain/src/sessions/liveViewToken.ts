import type { CursorSigner } from './logCursor.ts';
import { issueSignedToken, readSignedToken } from './signedToken.ts';

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

/** What the tag signs besides the payload: a token of another kind never passes for this one. */
const PURPOSE = 'live-view-token';

/**
 * A token for the live-view page and its WebSocket (http-api.md §14): `base64url(JSON).tag`, the tag a
 * keyed signature of the JSON, so only the server can make one. It is neither the user's access
 * token nor the session's connect key, and names one session.
 */
export function issueLiveViewToken(signer: CursorSigner, claims: LiveViewTokenClaims): string {
  return issueSignedToken(signer, PURPOSE, {
    s: claims.sessionId,
    p: claims.projectId,
    o: claims.userId,
    c: encodeCredential(claims.credential),
    r: claims.readOnly,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
  });
}

/**
 * The claims of a token this server signed; null for anything else (garbage, a changed payload or
 * tag, another key's token), and for a token of the earlier format, which names no owner, credential
 * or read-only flag: such a token would grant more than it says. Expiry is the caller's to check.
 */
export function readLiveViewToken(signer: CursorSigner, token: string): LiveViewTokenClaims | null {
  const claims = readSignedToken(signer, PURPOSE, token);
  if (!claims) return null;
  const { s, p, o, c, r, e } = claims;
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

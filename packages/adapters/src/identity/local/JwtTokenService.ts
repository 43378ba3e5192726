import { verify as verifySignature } from 'node:crypto';
import { AuthError } from '@browserdeck/domain';
import { SignJWT } from 'jose';
import type { JwtKeys } from './importJwtKeys.ts';

/** `iss` and `aud` of every access token unless configured otherwise. */
export const DEFAULT_JWT_ISSUER = 'browserdeck';
export const DEFAULT_JWT_AUDIENCE = 'browserdeck';
/** The `typ` header (RFC 9068): an access token cannot pass for any other kind of JWT. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** Longer bearer strings are refused before any parsing. */
const MAX_TOKEN_LENGTH = 4096;

/** What an access token says about its holder. */
export interface AccessTokenClaims {
  readonly userId: string;
  readonly email: string;
  readonly sessionId: string;
  /** Unique per token (`jti`). */
  readonly tokenId: string;
}

/** The verified contents of an access token. */
export interface VerifiedAccessToken extends AccessTokenClaims {
  readonly issuedAt: Date;
  readonly expiresAt: Date;
}

/** What JwtTokenService needs. */
export interface JwtTokenServiceDeps {
  /** Imported once at start-up (`loadOrCreateJwtKeys`); nothing is parsed per request. */
  keys: JwtKeys;
  issuer?: string;
  audience?: string;
}

/**
 * Signs and verifies access tokens: EdDSA (Ed25519) JWTs with claims `sub`, `email`, `sid`, `iat`,
 * `exp`, `iss`, `aud`, `jti`. Verification pins the algorithm, issuer, audience and type, and checks
 * expiry against the time it is given, never the wall clock.
 */
export class JwtTokenService {
  private readonly deps: JwtTokenServiceDeps;
  private readonly issuer: string;
  private readonly audience: string;
  /**
   * Tokens already verified, by their exact text: a client presents the same token on every
   * request until it expires, and the signature of a given string cannot change. Bounded; the
   * oldest entry leaves first. Revocation is not cached here (the identity provider checks it).
   */
  private readonly verified = new Map<string, VerifiedAccessToken>();

  constructor(deps: JwtTokenServiceDeps) {
    this.deps = deps;
    this.issuer = deps.issuer ?? DEFAULT_JWT_ISSUER;
    this.audience = deps.audience ?? DEFAULT_JWT_AUDIENCE;
  }

  /** Issues a token valid from `issuedAt` (whole seconds) for `ttlSec`; returns it with its expiry. */
  async sign(
    claims: AccessTokenClaims,
    issuedAt: Date,
    ttlSec: number,
  ): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const exp = iat + ttlSec;
    const { keys } = this.deps;
    const token = await new SignJWT({ email: claims.email, sid: claims.sessionId })
      .setProtectedHeader({ alg: keys.algorithm, typ: ACCESS_TOKEN_TYPE, kid: keys.keyId })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(claims.tokenId)
      .sign(keys.privateKey);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Verifies a token as of `now`. Throws `AuthError('unauthorized')` saying only "expired" or
   * "invalid": why a signature or claim failed is not the caller's business.
   *
   * Runs on every authenticated request, so it is synchronous work on the imported key object
   * (`node:crypto` Ed25519) rather than a WebCrypto round trip through the thread pool. What it
   * accepts is pinned: a compact JWS whose header says `alg: EdDSA`, `typ: at+jwt` and no `crit`,
   * with a valid signature, this issuer and audience, and every claim present and well typed.
   */
  async verify(token: string, now: Date): Promise<VerifiedAccessToken> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw invalid();
    const nowSec = Math.floor(now.getTime() / 1000);
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt.getTime() / 1000 <= nowSec) throw expired();
      return known;
    }
    const match = COMPACT_JWS.exec(token);
    if (!match) throw invalid();
    const [, encodedHeader, encodedPayload, encodedSignature] = match as unknown as [
      string,
      string,
      string,
      string,
    ];
    const header = parseJsonObject(encodedHeader);
    if (
      !header ||
      header.alg !== this.deps.keys.algorithm ||
      header.typ !== ACCESS_TOKEN_TYPE ||
      'crit' in header
    ) {
      throw invalid();
    }
    const signature = Buffer.from(encodedSignature, 'base64url');
    const signingInput = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii');
    if (
      signature.length !== ED25519_SIGNATURE_BYTES ||
      !verifySignature(null, signingInput, this.deps.keys.publicKeyObject, signature)
    ) {
      throw invalid();
    }
    const payload = parseJsonObject(encodedPayload);
    if (!payload) throw invalid();
    const { sub, email, sid, jti, iat, exp, nbf, iss, aud } = payload;
    if (
      typeof sub !== 'string' ||
      typeof email !== 'string' ||
      typeof sid !== 'string' ||
      typeof jti !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      iss !== this.issuer ||
      !(aud === this.audience || (Array.isArray(aud) && aud.includes(this.audience)))
    ) {
      throw invalid();
    }
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSec)) throw invalid();
    if (exp <= nowSec) throw expired();
    const verified: VerifiedAccessToken = Object.freeze({
      userId: sub,
      email,
      sessionId: sid,
      tokenId: jti,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
    });
    // Only tokens without `nbf` (the ones this service signs): a cached token is valid until `exp`.
    if (nbf === undefined) this.remember(token, verified);
    return verified;
  }

  private remember(token: string, verified: VerifiedAccessToken): void {
    this.verified.set(token, verified);
    if (this.verified.size > VERIFIED_CACHE_SIZE) {
      this.verified.delete(this.verified.keys().next().value as string);
    }
  }
}

/** header.payload.signature, each part unpadded base64url. */
const COMPACT_JWS = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
const ED25519_SIGNATURE_BYTES = 64;
/** How many verified tokens are remembered (a few MiB at most). */
const VERIFIED_CACHE_SIZE = 10_000;

/** The JSON object a base64url part encodes, or null when it is anything else. */
function parseJsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function expired(): AuthError {
  return new AuthError('unauthorized', 'The access token has expired.');
}

function invalid(): AuthError {
  return new AuthError('unauthorized', 'The access token is invalid.');
}

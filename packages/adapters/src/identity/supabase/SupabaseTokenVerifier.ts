import { AuthError, UnavailableError } from '@browserdeck/domain';
import {
  createRemoteJWKSet,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';

/** What a verified Supabase access token says. */
export interface SupabaseAccessClaims {
  readonly userId: string;
  readonly email: string;
  readonly sessionId: string;
  readonly expiresAt: Date;
}

/** How to verify a project's access tokens. */
export interface SupabaseTokenVerifierOptions {
  /** The project URL (`SUPABASE_URL`). */
  url: string;
  /** The project's anon key, sent as `apikey` with JWKS requests. */
  anonKey: string;
  /** The legacy HS256 secret (`SUPABASE_JWT_SECRET`); without it only ES256/RS256 via JWKS. */
  jwtSecret?: string;
  /** Least time between two JWKS fetches for unknown `kid`s; default 30 s. */
  jwksCooldownMs?: number;
}

/** jose failures that say "this token is bad" rather than "the keys could not be had". */
const TOKEN_FAULTS = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
]);

/**
 * Verifies Supabase access tokens locally, without asking Supabase: signature (ES256/RS256 against
 * the project's JWKS, refetched on an unknown `kid`; HS256 with the legacy secret when configured),
 * `exp`, `aud: authenticated` and `iss: <url>/auth/v1`. Bad tokens → `unauthorized`; keys that
 * cannot be fetched → `identity_unavailable`.
 */
export class SupabaseTokenVerifier {
  private readonly issuer: string;
  private readonly algorithms: string[];
  private readonly getKey: JWTVerifyGetKey;

  constructor(options: SupabaseTokenVerifierOptions) {
    const url = options.url.replace(/\/+$/, '');
    this.issuer = `${url}/auth/v1`;
    const jwks = createRemoteJWKSet(new URL(`${this.issuer}/.well-known/jwks.json`), {
      headers: { apikey: options.anonKey },
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    const secret = options.jwtSecret ? new TextEncoder().encode(options.jwtSecret) : undefined;
    this.algorithms = secret ? ['ES256', 'RS256', 'HS256'] : ['ES256', 'RS256'];
    this.getKey = (header: JWTHeaderParameters, token) =>
      header.alg === 'HS256' && secret ? secret : jwks(header, token);
  }

  /** The claims of a valid token at `now`; throws `unauthorized` otherwise. */
  async verify(token: string, now: Date): Promise<SupabaseAccessClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.getKey, {
        algorithms: this.algorithms,
        audience: 'authenticated',
        issuer: this.issuer,
        currentDate: now,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && TOKEN_FAULTS.has(code))
        throw unauthorized('The access token is not valid.');
      throw new UnavailableError('identity_unavailable', 'The identity provider keys could not be fetched.', {
        cause: error,
      });
    }
    const { sub, exp, email, session_id: sessionId } = payload;
    if (typeof sub !== 'string' || sub === '' || typeof sessionId !== 'string' || sessionId === '') {
      throw unauthorized('The access token names no user or sign-in session.');
    }
    return {
      userId: sub,
      email: typeof email === 'string' ? email : '',
      sessionId,
      expiresAt: new Date((exp as number) * 1000),
    };
  }
}

function unauthorized(message: string): AuthError {
  return new AuthError('unauthorized', message);
}

import {
  AuthError,
  type Clock,
  ConflictError,
  type IdentityProvider,
  type Logger,
  normalizeEmail,
  type Principal,
  type SignUpRequest,
  silentLogger,
  type TokenGrant,
  type UserIdentity,
} from '@browserdeck/domain';
import { GoTrueHttp } from './GoTrueHttp.ts';
import { InMemoryIssuedRefreshTokenStore } from './InMemoryIssuedRefreshTokenStore.ts';
import { hashIssuedRefreshToken, type IssuedRefreshTokenStore } from './IssuedRefreshTokenStore.ts';
import { INVALID_REFRESH_TOKEN_MESSAGE, mapGoTrueError } from './mapGoTrueError.ts';
import type { RevokedSessionStore } from './RevokedSessionStore.ts';
import { SupabaseTokenVerifier } from './SupabaseTokenVerifier.ts';
import { toTokenGrant } from './toTokenGrant.ts';

/** What SupabaseIdentityProvider needs. */
export interface SupabaseIdentityProviderDeps {
  /** `SUPABASE_URL`, e.g. `https://abcd.supabase.co`. */
  url: string;
  /** `SUPABASE_ANON_KEY`, sent as `apikey`. */
  anonKey: string;
  /** `SUPABASE_JWT_SECRET`, only for projects still signing with the legacy HS256 secret. */
  jwtSecret?: string;
  /** Ended sign-in sessions; share one store between instances. */
  revokedSessions: RevokedSessionStore;
  /**
   * Refresh token → sign-in session of the tokens handed out; share one store between instances.
   * Default: in process memory.
   */
  issuedRefreshTokens?: IssuedRefreshTokenStore;
  clock: Clock;
  logger?: Logger;
  /** Per-request deadline for GoTrue calls; default 10 s. */
  timeoutMs?: number;
  /** The project's JWT expiry setting; revocations last at least this long. Default 3600. */
  maxAccessTokenTtlSec?: number;
  /** How long to refuse a session whose GoTrue logout could not be confirmed. Default 30 days. */
  unconfirmedSignOutTtlSec?: number;
  /** Least time between JWKS refetches for unknown key ids; default 30 s. */
  jwksCooldownMs?: number;
  /** How long a handed-out refresh token is remembered for reuse detection. Default 30 days. */
  issuedRefreshTokenTtlSec?: number;
}

/**
 * Supabase Auth (GoTrue) as the identity provider, over its REST API with no shared client and no
 * background refresh. Access tokens are verified locally (JWKS or the legacy secret); sign-out and
 * refresh-token reuse are recorded in a `RevokedSessionStore` so the same access token is refused
 * until it expires.
 */
export class SupabaseIdentityProvider implements IdentityProvider {
  readonly name = 'supabase';
  private readonly deps: SupabaseIdentityProviderDeps;
  private readonly http: GoTrueHttp;
  private readonly verifier: SupabaseTokenVerifier;
  private readonly logger: Logger;
  private readonly maxAccessTokenTtlSec: number;
  private readonly unconfirmedSignOutTtlSec: number;
  private readonly issuedRefreshTokenTtlSec: number;
  private readonly issued: IssuedRefreshTokenStore;
  /** The token each principal was authenticated from, so sign-out can log it out at GoTrue. */
  private readonly tokenOf = new WeakMap<Principal, string>();

  constructor(deps: SupabaseIdentityProviderDeps) {
    this.deps = deps;
    this.http = new GoTrueHttp({ url: deps.url, anonKey: deps.anonKey, timeoutMs: deps.timeoutMs });
    this.verifier = new SupabaseTokenVerifier({
      url: deps.url,
      anonKey: deps.anonKey,
      jwtSecret: deps.jwtSecret,
      jwksCooldownMs: deps.jwksCooldownMs,
    });
    this.logger = deps.logger ?? silentLogger;
    this.maxAccessTokenTtlSec = deps.maxAccessTokenTtlSec ?? 3600;
    this.unconfirmedSignOutTtlSec = deps.unconfirmedSignOutTtlSec ?? 30 * 86_400;
    this.issuedRefreshTokenTtlSec = deps.issuedRefreshTokenTtlSec ?? 30 * 86_400;
    this.issued = deps.issuedRefreshTokens ?? new InMemoryIssuedRefreshTokenStore();
  }

  async signUp(request: SignUpRequest): Promise<UserIdentity> {
    const email = normalizeEmail(request.email);
    const body = (await this.http
      .post('/signup', { email, password: request.password, data: request.metadata })
      .catch((e: unknown) => Promise.reject(mapGoTrueError('signUp', e)))) as Record<string, unknown>;
    // Confirmation off: a session with its user. On: the bare user, and for an e-mail already
    // registered an obfuscated user with no identities (GoTrue will not say "taken" outright).
    const user = (typeof body?.access_token === 'string' ? body.user : body) as Record<string, unknown>;
    if (Array.isArray(user?.identities) && user.identities.length === 0) {
      throw new ConflictError('email_taken', 'An account with this e-mail already exists.');
    }
    if (typeof user?.id !== 'string') throw new Error('GoTrue answered the sign-up with no user.');
    // Sign-up hands out no tokens here (http-api.md §3): end the session GoTrue opened.
    if (typeof body.access_token === 'string') await this.logOut(body.access_token);
    return { id: user.id, email: typeof user.email === 'string' ? user.email : email };
  }

  async signIn(email: string, password: string): Promise<TokenGrant> {
    const body = await this.http
      .post('/token?grant_type=password', { email: normalizeEmail(email), password })
      .catch((e: unknown) => Promise.reject(mapGoTrueError('signIn', e)));
    return (await this.remember(body)).grant;
  }

  async refresh(refreshToken: string): Promise<TokenGrant> {
    if (typeof refreshToken !== 'string' || refreshToken.length === 0) throw invalidRefreshToken();
    let body: unknown;
    try {
      body = await this.http.post('/token?grant_type=refresh_token', { refresh_token: refreshToken });
    } catch (error) {
      // GoTrue revoked the token family; its access tokens are ours to refuse. Whatever our
      // database says, the caller hears why the refresh failed, not a database error.
      if ((error as { code?: unknown }).code === 'refresh_token_already_used') {
        await this.revokeReusedFamily(refreshToken).catch((storeError: unknown) => {
          this.logger.warn(
            { err: storeError },
            'could not revoke the session of a reused Supabase refresh token',
          );
        });
      }
      throw mapGoTrueError('refresh', error);
    }
    const { grant, sessionId } = await this.remember(body);
    // A session signed out here whose GoTrue logout failed: finish the job with the new token. GoTrue
    // has rotated already, so a failed check must not lose the grant: `authenticate` checks again
    // on every use of its access token.
    const revoked = await this.deps.revokedSessions
      .isRevoked(sessionId, this.deps.clock.now())
      .catch((storeError: unknown) => {
        this.logger.warn({ err: storeError }, 'could not check a refreshed Supabase session for revocation');
        return false;
      });
    if (revoked) {
      await this.logOut(grant.accessToken);
      throw invalidRefreshToken();
    }
    return grant;
  }

  private async revokeReusedFamily(refreshToken: string): Promise<void> {
    const known = await this.issued.find(hashIssuedRefreshToken(refreshToken), this.deps.clock.now());
    if (known) await this.revoke(known.sessionId, known.accessTokenTtlSec);
  }

  async signOut(principal: Principal): Promise<void> {
    const now = this.deps.clock.now();
    const token = this.tokenOf.get(principal);
    const loggedOut = token !== undefined && (await this.logOut(token));
    const ttlSec = loggedOut ? this.maxAccessTokenTtlSec : this.unconfirmedSignOutTtlSec;
    const until = Math.max(principal.expiresAt.getTime(), now.getTime() + ttlSec * 1000);
    await this.deps.revokedSessions.revoke(principal.sessionId, new Date(until), now);
  }

  async authenticate(accessToken: string): Promise<Principal> {
    const now = this.deps.clock.now();
    const claims = await this.verifier.verify(accessToken, now);
    if (await this.deps.revokedSessions.isRevoked(claims.sessionId, now)) {
      throw new AuthError('unauthorized', 'The access token was revoked.');
    }
    const principal: Principal = { ...claims };
    this.tokenOf.set(principal, accessToken);
    return principal;
  }

  /**
   * True unless the sign-in was recorded as ended here (sign-out, refresh-token reuse): GoTrue is not
   * asked, so an end only GoTrue knows of (a global sign-out elsewhere) is not seen.
   */
  async isSignInActive(signIn: { userId: string; sessionId: string }): Promise<boolean> {
    return !(await this.deps.revokedSessions.isRevoked(signIn.sessionId, this.deps.clock.now()));
  }

  private async remember(body: unknown) {
    const answer = toTokenGrant(body);
    const now = this.deps.clock.now();
    try {
      await this.issued.remember(
        hashIssuedRefreshToken(answer.grant.refreshToken),
        { sessionId: answer.sessionId, accessTokenTtlSec: answer.accessTokenTtlSec },
        new Date(now.getTime() + this.issuedRefreshTokenTtlSec * 1000),
        now,
      );
    } catch (error) {
      // GoTrue has already rotated: failing here would lose the only valid refresh token, and the
      // client's retry with the old one would look like reuse and end the session. Only the
      // reuse-to-session link of this one token is lost.
      this.logger.warn({ err: error }, 'could not record an issued Supabase refresh token');
    }
    return answer;
  }

  private async revoke(sessionId: string, accessTokenTtlSec: number): Promise<void> {
    const ttlMs = Math.max(accessTokenTtlSec, this.maxAccessTokenTtlSec) * 1000;
    const now = this.deps.clock.now();
    await this.deps.revokedSessions.revoke(sessionId, new Date(now.getTime() + ttlMs), now);
  }

  /** Ends the token's session at GoTrue (its refresh tokens die); true when GoTrue confirmed it. */
  private async logOut(accessToken: string): Promise<boolean> {
    try {
      await this.http.post('/logout?scope=local', {}, accessToken);
      return true;
    } catch (error) {
      // The session is already gone at GoTrue, which is what we wanted.
      const { status, code } = error as { status?: unknown; code?: unknown };
      if (status === 404 || code === 'session_not_found') return true;
      this.logger.warn({ err: error }, 'Supabase logout failed; the session is refused locally instead');
      return false;
    }
  }
}

function invalidRefreshToken(): AuthError {
  return new AuthError('invalid_refresh_token', INVALID_REFRESH_TOKEN_MESSAGE);
}

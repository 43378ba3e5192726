import { randomBytes } from 'node:crypto';
import {
  AuthError,
  type Clock,
  type IdentityProvider,
  type IdGenerator,
  normalizeEmail,
  type Principal,
  type SignUpRequest,
  type TokenGrant,
  type UserIdentity,
} from '@browserdeck/domain';
import type { JwtTokenService } from './JwtTokenService.ts';
import type { LocalIdentityStore } from './LocalIdentityStore.ts';
import type { PasswordHasher } from './PasswordHasher.ts';
import { hashRefreshToken, newRefreshToken } from './refreshTokens.ts';

/** http-api.md §9 defaults: 15 minutes and 30 days. */
export const DEFAULT_ACCESS_TOKEN_TTL_SEC = 900;
export const DEFAULT_REFRESH_TOKEN_TTL_SEC = 2_592_000;

/** What LocalIdentityProvider needs. */
export interface LocalIdentityProviderDeps {
  store: LocalIdentityStore;
  clock: Clock;
  ids: IdGenerator;
  tokens: JwtTokenService;
  passwords: PasswordHasher;
  accessTokenTtlSec?: number;
  refreshTokenTtlSec?: number;
}

const INVALID_CREDENTIALS = 'E-mail or password is wrong.';
const INVALID_REFRESH_TOKEN = 'The refresh token is not valid.';

/**
 * The default identity provider: argon2id credentials, sign-in sessions and hashed, rotating
 * refresh tokens in the service's own database; EdDSA-signed access tokens that stop working when
 * their sign-in session ends.
 */
export class LocalIdentityProvider implements IdentityProvider {
  readonly name = 'local';
  private readonly deps: LocalIdentityProviderDeps;
  private readonly accessTokenTtlSec: number;
  private readonly refreshTokenTtlSec: number;
  private dummyHash: Promise<string> | undefined;

  constructor(deps: LocalIdentityProviderDeps) {
    this.deps = deps;
    this.accessTokenTtlSec = deps.accessTokenTtlSec ?? DEFAULT_ACCESS_TOKEN_TTL_SEC;
    this.refreshTokenTtlSec = deps.refreshTokenTtlSec ?? DEFAULT_REFRESH_TOKEN_TTL_SEC;
  }

  async signUp(request: SignUpRequest): Promise<UserIdentity> {
    const email = normalizeEmail(request.email);
    const passwordHash = await this.deps.passwords.hash(request.password);
    const userId = this.deps.ids.next();
    await this.deps.store.addCredential({
      userId,
      email,
      passwordHash,
      metadata: request.metadata,
      createdAt: this.deps.clock.now(),
    });
    return { id: userId, email };
  }

  async signIn(email: string, password: string): Promise<TokenGrant> {
    const credential = await this.deps.store.findCredentialByEmail(normalizeEmail(email));
    // An unknown e-mail costs one argon2id verification too, against a hash of the same parameters.
    const matches = credential
      ? await this.deps.passwords.verify(credential.passwordHash, password)
      : await this.deps.passwords.verify(await this.dummyPasswordHash(), password).then(() => false);
    if (!credential || !matches) throw new AuthError('invalid_credentials', INVALID_CREDENTIALS);

    const now = this.deps.clock.now();
    const sessionId = this.deps.ids.next();
    await this.deps.store.addSession({
      id: sessionId,
      userId: credential.userId,
      createdAt: now,
      revokedAt: null,
    });
    return this.grant({ id: credential.userId, email: credential.email }, sessionId, now);
  }

  async refresh(refreshToken: string): Promise<TokenGrant> {
    if (typeof refreshToken !== 'string' || refreshToken.length === 0) throw invalidRefreshToken();
    const tokenHash = hashRefreshToken(refreshToken);
    const record = await this.deps.store.findRefreshToken(tokenHash);
    if (!record) throw invalidRefreshToken();
    const session = await this.deps.store.findSession(record.sessionId);
    const now = this.deps.clock.now();
    if (!session || session.revokedAt !== null || record.expiresAt.getTime() <= now.getTime()) {
      throw invalidRefreshToken();
    }
    // A rotated token presented again, or two presentations racing: someone else holds a copy.
    // End the whole sign-in so neither copy (nor its descendants) keeps working.
    if (record.usedAt !== null || !(await this.deps.store.markRefreshTokenUsed(tokenHash, now))) {
      await this.deps.store.revokeSession(record.sessionId, now);
      throw invalidRefreshToken();
    }
    const credential = await this.deps.store.findCredentialByUserId(record.userId);
    if (!credential) throw invalidRefreshToken();
    return this.grant({ id: credential.userId, email: credential.email }, record.sessionId, now);
  }

  async signOut(principal: Principal): Promise<void> {
    await this.deps.store.revokeSession(principal.sessionId, this.deps.clock.now());
  }

  async authenticate(accessToken: string): Promise<Principal> {
    const claims = await this.deps.tokens.verify(accessToken, this.deps.clock.now());
    const session = await this.deps.store.findSession(claims.sessionId);
    if (!session || session.userId !== claims.userId || session.revokedAt !== null) {
      throw new AuthError('unauthorized', 'The access token was revoked.');
    }
    return {
      userId: claims.userId,
      email: claims.email,
      sessionId: claims.sessionId,
      expiresAt: claims.expiresAt,
      accountDisabled: session.userDisabled,
    };
  }

  async isSignInActive(signIn: { userId: string; sessionId: string }): Promise<boolean> {
    const session = await this.deps.store.findSession(signIn.sessionId);
    return session !== null && session.userId === signIn.userId && session.revokedAt === null;
  }

  private async grant(user: UserIdentity, sessionId: string, now: Date): Promise<TokenGrant> {
    const refreshToken = newRefreshToken();
    await this.deps.store.addRefreshToken({
      tokenHash: hashRefreshToken(refreshToken),
      sessionId,
      userId: user.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.refreshTokenTtlSec * 1000),
      usedAt: null,
    });
    const { token, expiresAt } = await this.deps.tokens.sign(
      { userId: user.id, email: user.email, sessionId, tokenId: this.deps.ids.next() },
      now,
      this.accessTokenTtlSec,
    );
    return { accessToken: token, refreshToken, expiresIn: this.accessTokenTtlSec, expiresAt, user };
  }

  /**
   * Prepares the dummy hash that unknown e-mails are verified against, so that even the first such
   * sign-in costs exactly what a wrong password costs. Call it at start-up.
   */
  async warmUp(): Promise<void> {
    await this.dummyPasswordHash();
  }

  /** A hash of a random password with the hasher's parameters, made once (at `warmUp` or first need). */
  private dummyPasswordHash(): Promise<string> {
    if (!this.dummyHash) {
      this.dummyHash = this.deps.passwords.hash(randomBytes(32).toString('base64url'));
      // A failed attempt is not cached: the next unknown e-mail tries again.
      this.dummyHash.catch(() => {
        this.dummyHash = undefined;
      });
    }
    return this.dummyHash;
  }
}

function invalidRefreshToken(): AuthError {
  return new AuthError('invalid_refresh_token', INVALID_REFRESH_TOKEN);
}

import type {
  Clock,
  IdentityProvider,
  IdGenerator,
  Principal,
  SignUpRequest,
  TokenGrant,
  UserIdentity,
} from '@browserdeck/domain';
import { AuthError, ConflictError } from '@browserdeck/domain';

/** What InMemoryIdentityProvider needs. */
export interface InMemoryIdentityProviderDeps {
  ids: IdGenerator;
  clock: Clock;
  accessTokenTtlSec?: number;
  /** Refresh-token lifetime; 30 days unless told. */
  refreshTokenTtlSec?: number;
}

/**
 * A test double of an identity provider: plaintext passwords, tokens that are random-looking ids.
 * It keeps the port's rules (rotation, reuse detection, revocation) so use-case tests mean something.
 */
export class InMemoryIdentityProvider implements IdentityProvider {
  readonly name = 'memory';
  private readonly users = new Map<string, UserIdentity & { password: string }>();
  private readonly accessTokens = new Map<string, Principal>();
  private readonly refreshTokens = new Map<
    string,
    { userId: string; sessionId: string; spent: boolean; expiresAt: Date }
  >();
  private readonly revokedSessions = new Set<string>();
  /** The user of each sign-in session started. */
  private readonly signIns = new Map<string, string>();

  private readonly deps: InMemoryIdentityProviderDeps;

  constructor(deps: InMemoryIdentityProviderDeps) {
    this.deps = deps;
  }

  async signUp(request: SignUpRequest): Promise<UserIdentity> {
    if (this.users.has(request.email))
      throw new ConflictError('email_taken', 'That e-mail is already registered.');
    const user = { id: this.deps.ids.next(), email: request.email, password: request.password };
    this.users.set(request.email, user);
    return { id: user.id, email: user.email };
  }

  async signIn(email: string, password: string): Promise<TokenGrant> {
    const user = this.users.get(email);
    if (!user || user.password !== password) {
      throw new AuthError('invalid_credentials', 'E-mail or password is wrong.');
    }
    const sessionId = this.deps.ids.next();
    this.signIns.set(sessionId, user.id);
    return this.grant(user, sessionId);
  }

  async refresh(refreshToken: string): Promise<TokenGrant> {
    const record = this.refreshTokens.get(refreshToken);
    if (
      !record ||
      this.revokedSessions.has(record.sessionId) ||
      record.expiresAt.getTime() <= this.deps.clock.now().getTime()
    ) {
      throw new AuthError('invalid_refresh_token', 'The refresh token is not valid.');
    }
    if (record.spent) {
      this.revokedSessions.add(record.sessionId);
      throw new AuthError('invalid_refresh_token', 'The refresh token is not valid.');
    }
    record.spent = true;
    const user = [...this.users.values()].find((u) => u.id === record.userId)!;
    return this.grant(user, record.sessionId);
  }

  async signOut(principal: Principal): Promise<void> {
    this.revokedSessions.add(principal.sessionId);
  }

  async authenticate(accessToken: string): Promise<Principal> {
    const principal = this.accessTokens.get(accessToken);
    if (
      !principal ||
      this.revokedSessions.has(principal.sessionId) ||
      principal.expiresAt.getTime() <= this.deps.clock.now().getTime()
    ) {
      throw new AuthError('unauthorized', 'The access token is missing, expired or revoked.');
    }
    return principal;
  }

  async isSignInActive(signIn: { userId: string; sessionId: string }): Promise<boolean> {
    const started = this.signIns.get(signIn.sessionId);
    return started === signIn.userId && !this.revokedSessions.has(signIn.sessionId);
  }

  private grant(user: UserIdentity, sessionId: string): TokenGrant {
    const ttl = this.deps.accessTokenTtlSec ?? 900;
    const now = this.deps.clock.now().getTime();
    const expiresAt = new Date(now + ttl * 1000);
    const refreshExpiresAt = new Date(now + (this.deps.refreshTokenTtlSec ?? 2_592_000) * 1000);
    const accessToken = `at-${this.deps.ids.next()}`;
    const refreshToken = `rt-${this.deps.ids.next()}`;
    this.accessTokens.set(accessToken, { userId: user.id, email: user.email, sessionId, expiresAt });
    this.refreshTokens.set(refreshToken, {
      userId: user.id,
      sessionId,
      spent: false,
      expiresAt: refreshExpiresAt,
    });
    return { accessToken, refreshToken, expiresIn: ttl, expiresAt, user: { id: user.id, email: user.email } };
  }
}

/** A user's credentials as the local identity provider keeps them. */
export interface LocalCredential {
  readonly userId: string;
  /** Normalized (trimmed, lower-cased). Unique. */
  readonly email: string;
  /** argon2id PHC string. */
  readonly passwordHash: string;
  /** Sign-up metadata, at most 8 KiB as JSON. */
  readonly metadata: Record<string, unknown>;
  readonly createdAt: Date;
}

/** One sign-in: the refresh-token family and the access tokens issued under it. */
export interface LocalSignInSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  /** Set when signed out or when refresh-token reuse was detected; final. */
  readonly revokedAt: Date | null;
}

/** A refresh token, known only by the SHA-256 hash of its value. */
export interface LocalRefreshToken {
  /** Hex SHA-256 of the opaque token. Unique. */
  readonly tokenHash: string;
  readonly sessionId: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** Set once, when the token was exchanged for a new pair. */
  readonly usedAt: Date | null;
}

/**
 * Storage behind the local identity provider. Implementations: in memory (tests) and MikroORM
 * (SQLite, PostgreSQL). Every rule that must hold across server instances is an atomic operation here.
 */
export interface LocalIdentityStore {
  /** Stores new credentials; throws `ConflictError('email_taken')` when the e-mail exists (also under races). */
  addCredential(credential: LocalCredential): Promise<void>;
  findCredentialByEmail(email: string): Promise<LocalCredential | null>;
  findCredentialByUserId(userId: string): Promise<LocalCredential | null>;
  addSession(session: LocalSignInSession): Promise<void>;
  /**
   * The sign-in session, and whether its user's account is disabled (SPEC §17) when the store reads
   * the users too (in the same query; absent: it does not).
   */
  findSession(id: string): Promise<(LocalSignInSession & { readonly userDisabled?: boolean }) | null>;
  /** Marks the session revoked (keeps the first revocation time). */
  revokeSession(id: string, at: Date): Promise<void>;
  addRefreshToken(token: LocalRefreshToken): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<LocalRefreshToken | null>;
  /**
   * Marks the token used if it was not yet: true when this call did it, false when it was already
   * used (reuse). Atomic: of several concurrent calls for one token exactly one gets true.
   */
  markRefreshTokenUsed(tokenHash: string, at: Date): Promise<boolean>;
}

import { ConflictError } from '@browserdeck/domain';
import type {
  LocalCredential,
  LocalIdentityStore,
  LocalRefreshToken,
  LocalSignInSession,
} from './LocalIdentityStore.ts';

/**
 * `LocalIdentityStore` in maps, for tests and single-process experiments. Records are copied in
 * and out, as a database would, so callers cannot change stored state by mutating what they hold.
 */
export class InMemoryLocalIdentityStore implements LocalIdentityStore {
  private readonly credentialsByEmail = new Map<string, LocalCredential>();
  private readonly emailsByUserId = new Map<string, string>();
  private readonly sessions = new Map<string, LocalSignInSession>();
  private readonly refreshTokens = new Map<string, LocalRefreshToken>();

  async addCredential(credential: LocalCredential): Promise<void> {
    if (this.credentialsByEmail.has(credential.email)) {
      throw new ConflictError('email_taken', 'That e-mail is already registered.');
    }
    if (this.emailsByUserId.has(credential.userId)) {
      throw new Error(`A credential for user ${credential.userId} already exists.`);
    }
    this.credentialsByEmail.set(credential.email, copyCredential(credential));
    this.emailsByUserId.set(credential.userId, credential.email);
  }

  async findCredentialByEmail(email: string): Promise<LocalCredential | null> {
    const found = this.credentialsByEmail.get(email);
    return found ? copyCredential(found) : null;
  }

  async findCredentialByUserId(userId: string): Promise<LocalCredential | null> {
    const email = this.emailsByUserId.get(userId);
    return email === undefined ? null : this.findCredentialByEmail(email);
  }

  async addSession(session: LocalSignInSession): Promise<void> {
    if (this.sessions.has(session.id)) throw new Error(`Sign-in session ${session.id} already exists.`);
    this.sessions.set(session.id, copySession(session));
  }

  async findSession(id: string): Promise<LocalSignInSession | null> {
    const found = this.sessions.get(id);
    return found ? copySession(found) : null;
  }

  async revokeSession(id: string, at: Date): Promise<void> {
    const found = this.sessions.get(id);
    if (found && found.revokedAt === null) this.sessions.set(id, { ...found, revokedAt: new Date(at) });
  }

  async addRefreshToken(token: LocalRefreshToken): Promise<void> {
    if (this.refreshTokens.has(token.tokenHash)) throw new Error('That refresh token hash already exists.');
    this.refreshTokens.set(token.tokenHash, copyRefreshToken(token));
  }

  async findRefreshToken(tokenHash: string): Promise<LocalRefreshToken | null> {
    const found = this.refreshTokens.get(tokenHash);
    return found ? copyRefreshToken(found) : null;
  }

  async markRefreshTokenUsed(tokenHash: string, at: Date): Promise<boolean> {
    // No await between the check and the write: atomic on one event loop.
    const found = this.refreshTokens.get(tokenHash);
    if (!found || found.usedAt !== null) return false;
    this.refreshTokens.set(tokenHash, { ...found, usedAt: new Date(at) });
    return true;
  }
}

function copyCredential(credential: LocalCredential): LocalCredential {
  return {
    ...credential,
    metadata: structuredClone(credential.metadata),
    createdAt: new Date(credential.createdAt),
  };
}

function copySession(session: LocalSignInSession): LocalSignInSession {
  return { ...session, createdAt: new Date(session.createdAt), revokedAt: copyDate(session.revokedAt) };
}

function copyRefreshToken(token: LocalRefreshToken): LocalRefreshToken {
  return {
    ...token,
    createdAt: new Date(token.createdAt),
    expiresAt: new Date(token.expiresAt),
    usedAt: copyDate(token.usedAt),
  };
}

function copyDate(date: Date | null): Date | null {
  return date === null ? null : new Date(date);
}

import type { UserIdentity } from './User.ts';

/** Who an access token speaks for. */
export interface Principal {
  readonly userId: string;
  readonly email: string;
  /** The sign-in session the token belongs to; signing out ends it. */
  readonly sessionId: string;
  /** When the access token stops being valid. */
  readonly expiresAt: Date;
  /**
   * Whether an operator disabled the account (SPEC §17), when the identity provider read it with the
   * token's sign-in (the local provider does, in the same query); absent: not read, and
   * `Authenticate` reads it.
   */
  readonly accountDisabled?: boolean | undefined;
}

/** The tokens handed out on sign-in and refresh. */
export interface TokenGrant {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Access-token lifetime in seconds from issue. */
  readonly expiresIn: number;
  readonly expiresAt: Date;
  readonly user: UserIdentity;
}

/** What sign-up needs; the e-mail is already normalized and every field validated. */
export interface SignUpRequest {
  readonly email: string;
  readonly password: string;
  readonly metadata: Record<string, unknown>;
}

/**
 * Vouches for users: keeps credentials, issues and verifies tokens. Implementations throw
 * `DomainError`s: `email_taken`, `invalid_credentials`, `invalid_refresh_token`, `unauthorized`,
 * `rate_limited`, `identity_unavailable`.
 */
export interface IdentityProvider {
  /** `local`, `supabase`, … */
  readonly name: string;
  signUp(request: SignUpRequest): Promise<UserIdentity>;
  /** Answers unknown e-mails exactly as wrong passwords: same error, same work. */
  signIn(email: string, password: string): Promise<TokenGrant>;
  /** Rotates the refresh token; presenting a rotated one revokes its whole sign-in session. */
  refresh(refreshToken: string): Promise<TokenGrant>;
  /** Ends the principal's sign-in session: its refresh tokens and access tokens stop working. */
  signOut(principal: Principal): Promise<void>;
  /** Verifies an access token, including that its sign-in session was not ended. */
  authenticate(accessToken: string): Promise<Principal>;
  /**
   * Whether the user's sign-in session `sessionId` (a `Principal.sessionId`) has not been ended
   * (signed out, revoked for refresh-token reuse). A provider that keeps the sign-ins answers false
   * for one it does not know or of another user; one that only records ended sign-ins (Supabase)
   * answers true unless it recorded the end. Needs no access token: a live view (http-api.md §14)
   * outlives the access token that opened it.
   */
  isSignInActive(signIn: { readonly userId: string; readonly sessionId: string }): Promise<boolean>;
}

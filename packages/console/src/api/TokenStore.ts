/** What the store needs of `localStorage`. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The key the refresh token is kept under. */
export const REFRESH_TOKEN_KEY = 'browserdeck.refreshToken';

/**
 * The console's tokens. The access token lives in memory only, so it dies with the page; the
 * refresh token is kept in `localStorage` so a reload or a second tab stays signed in
 * (docs/console.md explains the choice). `expiresAt` is in epoch milliseconds.
 */
export class TokenStore {
  #accessToken: string | undefined;
  #expiresAt = 0;
  readonly #storage: KeyValueStorage | undefined;

  constructor(storage: KeyValueStorage | undefined) {
    this.#storage = storage;
  }

  get accessToken(): string | undefined {
    return this.#accessToken;
  }

  /** When the access token expires, in epoch milliseconds (0 without one). */
  get expiresAt(): number {
    return this.#expiresAt;
  }

  get refreshToken(): string | undefined {
    try {
      return this.#storage?.getItem(REFRESH_TOKEN_KEY) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps a new pair of tokens (after sign-in or refresh). */
  set(grant: { access_token: string; refresh_token: string; expires_in: number }, now: number): void {
    this.#accessToken = grant.access_token;
    // `expires_in` rather than `expires_at`: it counts from now, so a page whose clock is off from the
    // server's still refreshes in time.
    this.#expiresAt = now + grant.expires_in * 1000;
    try {
      this.#storage?.setItem(REFRESH_TOKEN_KEY, grant.refresh_token);
    } catch {
      // Storage refused (private mode, quota): the sign-in lasts as long as the page.
    }
  }

  /** Forgets both tokens. */
  clear(): void {
    this.#accessToken = undefined;
    this.#expiresAt = 0;
    try {
      this.#storage?.removeItem(REFRESH_TOKEN_KEY);
    } catch {
      // Nothing kept, nothing to remove.
    }
  }
}

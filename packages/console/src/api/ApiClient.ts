import { ApiError } from './ApiError.ts';
import type { TokenStore } from './TokenStore.ts';
import type { TokenGrant, User } from './types.ts';

/** Refresh this long before the access token expires, so no request goes out with a dying token. */
export const REFRESH_MARGIN_MS = 60_000;

/** What a request may carry besides its method and path. */
export interface RequestOptions {
  json?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Send the access token (default). Sign-up, sign-in and refresh go without. */
  auth?: boolean;
  headers?: Record<string, string>;
}

/** What the client needs from the page; tests give fakes. */
export interface ApiClientDeps {
  fetch: typeof fetch;
  /** Prefix of every API path (`''` at the root, `/browserdeck` under a mount). */
  apiPrefix: string;
  tokens: TokenStore;
  now: () => number;
  /** Serialises refreshes across tabs that share the refresh token (`navigator.locks`). */
  locks?: Pick<LockManager, 'request'> | undefined;
  /** Called once the sign-in is over: signed out here, or refused by the server. */
  onSignedOut: (reason: 'signed-out' | 'expired') => void;
}

/**
 * The console's one way to the HTTP API (http-api.md): JSON in and out, problems turned into
 * `ApiError`s, and the access token kept fresh. The token is refreshed shortly before it expires; a
 * 401 is retried once after a refresh; a refresh the server refuses ends the sign-in.
 */
export class ApiClient {
  readonly #deps: ApiClientDeps;
  #refreshing: Promise<TokenGrant> | undefined;

  constructor(deps: ApiClientDeps) {
    this.#deps = deps;
  }

  /** Sends a request and answers its JSON body (`undefined` for 204). Throws `ApiError`. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const auth = options.auth ?? true;
    if (auth && this.#needsRefresh()) await this.#refreshOrEnd();
    let response = await this.#send(method, path, options, auth);
    if (auth && response.status === 401) {
      await this.#refreshOrEnd();
      response = await this.#send(method, path, options, auth);
      if (response.status === 401) {
        const error = await ApiError.fromResponse(response);
        this.#end('expired');
        throw error;
      }
    }
    if (!response.ok) throw await ApiError.fromResponse(response);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Signs in and keeps the tokens. */
  async signIn(email: string, password: string): Promise<User> {
    const grant = await this.request<TokenGrant>('POST', '/v1/auth/signin', {
      json: { email, password },
      auth: false,
    });
    this.#deps.tokens.set(grant, this.#deps.now());
    return grant.user;
  }

  /**
   * Resumes the sign-in a refresh token kept from an earlier page (a reload): the user, or
   * `undefined` when there is none or the server refuses it.
   */
  async resume(): Promise<User | undefined> {
    if (!this.#deps.tokens.refreshToken) return undefined;
    try {
      return (await this.#refresh()).user;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        this.#deps.tokens.clear();
        return undefined;
      }
      throw error;
    }
  }

  /** Ends the sign-in on the server (its refresh and access tokens stop working), then here. */
  async signOut(): Promise<void> {
    try {
      if (this.#deps.tokens.accessToken) await this.#send('POST', '/v1/auth/signout', {}, true);
    } finally {
      this.#end('signed-out');
    }
  }

  #needsRefresh(): boolean {
    const { tokens, now } = this.#deps;
    if (!tokens.refreshToken) return false;
    return !tokens.accessToken || tokens.expiresAt - now() < REFRESH_MARGIN_MS;
  }

  async #refreshOrEnd(): Promise<void> {
    try {
      await this.#refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.#end('expired');
      throw error;
    }
  }

  /** One refresh at a time in this page, and (with `locks`) across the pages sharing the token. */
  #refresh(): Promise<TokenGrant> {
    this.#refreshing ??= this.#refreshLocked().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refreshLocked(): Promise<TokenGrant> {
    const run = async (): Promise<TokenGrant> => {
      // Read inside the lock: another tab may have just rotated it (a rotated token presented again
      // is taken for theft and ends the sign-in everywhere, http-api.md §3).
      const refreshToken = this.#deps.tokens.refreshToken;
      if (!refreshToken) {
        throw new ApiError({
          status: 401,
          title: 'Signed out',
          detail: 'There is no sign-in to resume.',
          code: 'invalid_refresh_token',
        });
      }
      const response = await this.#send(
        'POST',
        '/v1/auth/refresh',
        { json: { refresh_token: refreshToken } },
        false,
      );
      if (!response.ok) throw await ApiError.fromResponse(response);
      const grant = (await response.json()) as TokenGrant;
      this.#deps.tokens.set(grant, this.#deps.now());
      return grant;
    };
    const { locks } = this.#deps;
    return locks ? locks.request('browserdeck-refresh', run) : run();
  }

  #end(reason: 'signed-out' | 'expired'): void {
    this.#deps.tokens.clear();
    this.#deps.onSignedOut(reason);
  }

  async #send(method: string, path: string, options: RequestOptions, auth: boolean): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    const token = this.#deps.tokens.accessToken;
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    try {
      return await this.#deps.fetch(this.#url(path, options.query), {
        method,
        headers,
        ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (cause) {
      throw ApiError.network(cause);
    }
  }

  #url(path: string, query: RequestOptions['query']): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== '') params.set(name, String(value));
    }
    const search = params.toString();
    return `${this.#deps.apiPrefix}${path}${search ? `?${search}` : ''}`;
  }
}

import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { ApiError } from './ApiError.ts';
import type { paths } from './openapi.ts';
import type { TokenStore } from './TokenStore.ts';
import type { TokenGrant, User } from './types.ts';

/** Refresh this long before the access token expires, so no request goes out with a dying token. */
export const REFRESH_MARGIN_MS = 60_000;

/** The typed client of the API: openapi-fetch over the paths generated from its OpenAPI document. */
export type Api = Client<paths>;

/** What one call of the typed client answers (openapi-fetch's result: data, or error, and the response). */
export interface ApiAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** How `send` sends a call. */
export interface SendOptions {
  /** Send the access token, refreshing it as needed (default). Sign-up, sign-in and refresh go without. */
  auth?: boolean;
}

/** What the client needs from the page; tests give fakes. */
export interface ApiClientDeps {
  fetch: typeof fetch;
  /**
   * Where the API is: the page's origin and the mount prefix (`https://host`, or
   * `https://host/browserdeck` under a mount). Absolute, as openapi-fetch builds `Request`s.
   */
  baseUrl: string;
  tokens: TokenStore;
  now: () => number;
  /** Serialises refreshes across tabs that share the refresh token (`navigator.locks`). */
  locks?: Pick<LockManager, 'request'> | undefined;
  /** Called once the sign-in is over: signed out here, or refused by the server. */
  onSignedOut: (reason: 'signed-out' | 'expired') => void;
}

/**
 * The console's one way to the HTTP API (http-api.md): calls typed by the OpenAPI document
 * (openapi-fetch), problems turned into `ApiError`s, and the access token kept fresh. The token is
 * refreshed shortly before it expires; a 401 is retried once after a refresh; a refresh the server
 * refuses ends the sign-in.
 */
export class ApiClient {
  readonly #deps: ApiClientDeps;
  /** Sends the access token (a middleware reads it at each request, so a retry has the new one). */
  readonly #signedIn: Api;
  /** Sends no credentials. */
  readonly #anonymous: Api;
  #refreshing: Promise<TokenGrant> | undefined;

  constructor(deps: ApiClientDeps) {
    this.#deps = deps;
    const options: ClientOptions = {
      baseUrl: deps.baseUrl,
      fetch: deps.fetch,
      headers: { Accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
    };
    const noAnswer: Middleware = { onError: ({ error }) => ApiError.network(error) };
    const bearer: Middleware = {
      onRequest: ({ request }) => {
        const token = deps.tokens.accessToken;
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    };
    this.#anonymous = createClient<paths>(options);
    this.#anonymous.use(noAnswer);
    this.#signedIn = createClient<paths>(options);
    this.#signedIn.use(noAnswer, bearer);
  }

  /**
   * Sends one typed call and answers its data (`undefined` for 204), e.g.
   * `send((api) => api.GET('/v1/projects', { params: { query: { archived: 'false' } } }))`.
   * `call` may run twice: again after a refresh when the first answer is a 401. Throws `ApiError`.
   */
  async send<T>(call: (api: Api) => Promise<ApiAnswer<T>>, options: SendOptions = {}): Promise<T> {
    if (options.auth === false) return dataOf(await call(this.#anonymous));
    if (this.#needsRefresh()) await this.#refreshOrEnd();
    let answer = await call(this.#signedIn);
    if (answer.response.status === 401) {
      await this.#refreshOrEnd();
      answer = await call(this.#signedIn);
      if (answer.response.status === 401) {
        const error = ApiError.fromAnswer(answer.response, answer.error);
        this.#end('expired');
        throw error;
      }
    }
    return dataOf(answer);
  }

  /** The absolute URL of an API path (`/v1/…`): below the mount prefix, like every typed call. */
  urlOf(path: string): string {
    return `${this.#deps.baseUrl}${path}`;
  }

  /**
   * A plain `fetch` with the access token, kept fresh as `send` keeps it (refreshed before it
   * expires, once more after a 401, then the sign-in ends): for the one call openapi-fetch cannot
   * make, the run log stream, whose `EventSource` takes a `fetch` and cannot send the header itself.
   * It answers whatever the server answers (a second 401 too); only a request that got no answer throws.
   */
  async fetchAuthorized(url: string | URL, init: RequestInit = {}): Promise<Response> {
    if (this.#needsRefresh()) await this.#refreshOrEnd();
    const attempt = () => {
      const headers = new Headers(init.headers);
      const token = this.#deps.tokens.accessToken;
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return this.#deps.fetch(url, { ...init, headers, credentials: 'omit' });
    };
    const first = await attempt();
    if (first.status !== 401) return first;
    await first.body?.cancel();
    await this.#refreshOrEnd();
    const second = await attempt();
    if (second.status === 401) this.#end('expired');
    return second;
  }

  /** Signs in and keeps the tokens. */
  async signIn(email: string, password: string): Promise<User> {
    const grant = await this.send((api) => api.POST('/v1/auth/signin', { body: { email, password } }), {
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
      // Whatever the server answers, the sign-in ends here; only a request that got no answer throws.
      if (this.#deps.tokens.accessToken) await this.#signedIn.POST('/v1/auth/signout');
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
      const grant = dataOf(
        await this.#anonymous.POST('/v1/auth/refresh', { body: { refresh_token: refreshToken } }),
      );
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
}

/** The data of a 2xx answer; the answer's problem as an `ApiError` otherwise. */
function dataOf<T>({ data, error, response }: ApiAnswer<T>): T {
  if (!response.ok) throw ApiError.fromAnswer(response, error);
  return data as T;
}

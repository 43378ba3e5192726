import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '@browserdeck/domain';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import nock from 'nock';

interface FakeUser {
  id: string;
  email: string;
  password: string;
  metadata: Record<string, unknown>;
  confirmed: boolean;
}
interface FakeRefreshToken {
  sessionId: string;
  userId: string;
  used: boolean;
  revoked: boolean;
}
type Reply = [number, unknown] | [number, unknown, Record<string, string>];

let projects = 0;

/**
 * A stateful stand-in for one Supabase project's GoTrue, served through nock on GoTrue's wire
 * format: signup, password and refresh_token grants, logout, JWKS. Tokens are ES256 with a `kid`;
 * refresh tokens rotate, and a used one presented again revokes its whole family (GoTrue's reuse
 * detection, without the reuse interval). Errors answer in the shape the request's
 * `X-Supabase-Api-Version` asks for, unless `legacyErrors` says the project ignores it.
 */
export class FakeGoTrue {
  readonly url = `https://fake${++projects}.supabase.co`;
  readonly issuer = `${this.url}/auth/v1`;
  readonly kid = `kid-${randomUUID()}`;
  readonly accessTokenTtlSec = 3600;
  /** Sign-up answers a bare user and sign-in refuses until the e-mail is confirmed. */
  confirmEmails = false;
  /** Every POST answers a non-JSON 503, as a proxy in front of a GoTrue that is down. */
  down = false;
  /** Every POST fails at the network level (connection reset): fetch rejects. */
  unreachable = false;
  /** Errors answer `{ code: <status>, error_code, msg }` whatever the API version asked for. */
  legacyErrors = false;
  private readonly scripted: Reply[] = [];
  readonly users = new Map<string, FakeUser>();
  readonly sessions = new Set<string>();
  readonly refreshTokens = new Map<string, FakeRefreshToken>();
  readonly requests: { path: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
  private readonly clock: Clock;
  private privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'] | undefined;
  private publicJwk: JWK | undefined;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Makes the key pair and installs the interceptors. */
  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    this.privateKey = privateKey;
    this.publicJwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: 'ES256', use: 'sig' };
    const scope = nock(this.url).persist();
    scope.get('/auth/v1/.well-known/jwks.json').reply(200, () => ({ keys: [this.publicJwk] }));
    // nock 15 hands full reply functions the (fetch) Request itself.
    scope.post(/^\/auth\/v1\/.*/).reply(async (request: Request) => this.handle(request));
    return this;
  }

  /** Answers the next POST (after recording it) with `status`, `body` and `headers` instead. */
  answerNext(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.scripted.push([status, body, headers]);
  }

  /** Signs an access token the way GoTrue does, for this project's key. */
  async accessToken(
    user: { id: string; email: string },
    sessionId: string,
    overrides: { aud?: string; iss?: string } = {},
  ): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({
      email: user.email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: iat }],
      session_id: sessionId,
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
    })
      .setProtectedHeader({ alg: 'ES256', kid: this.kid, typ: 'JWT' })
      .setIssuer(overrides.iss ?? this.issuer)
      .setAudience(overrides.aud ?? 'authenticated')
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.accessTokenTtlSec)
      .sign(this.privateKey!);
  }

  private async handle(request: Request): Promise<Reply> {
    const url = new URL(request.url);
    const headers = Object.fromEntries(request.headers.entries());
    const body = JSON.parse((await request.text()) || '{}') as Record<string, unknown>;
    this.requests.push({ path: url.pathname + url.search, headers, body });
    if (this.unreachable) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    if (this.down) return [503, 'upstream connect error'];
    const next = this.scripted.shift();
    if (next) return next;
    const modern = !this.legacyErrors && headers['x-supabase-api-version'] === '2024-01-01';
    const fail = (status: number, code: string, message: string): Reply =>
      modern ? [status, { code, message }] : [status, { code: status, error_code: code, msg: message }];
    if (headers.apikey === undefined) return [401, { message: 'No API key found in request' }];
    const grant = url.searchParams.get('grant_type');
    if (url.pathname === '/auth/v1/signup') return this.signUp(body, fail);
    if (url.pathname === '/auth/v1/token' && grant === 'password') return this.password(body, fail);
    if (url.pathname === '/auth/v1/token' && grant === 'refresh_token') return this.refresh(body, fail);
    if (url.pathname === '/auth/v1/logout') return this.logout(String(headers.authorization ?? ''), fail);
    return fail(404, 'not_found', 'Not found');
  }

  private async signUp(body: Record<string, unknown>, fail: Fail): Promise<Reply> {
    const email = String(body.email);
    const password = String(body.password ?? '');
    if (password.length < 6) {
      const [status, error] = fail(422, 'weak_password', 'Password should be at least 6 characters.');
      return [status, { ...(error as object), weak_password: { reasons: ['length'] } }];
    }
    const existing = this.users.get(email);
    if (existing && !this.confirmEmails) return fail(422, 'user_already_exists', 'User already registered');
    if (existing) return [200, userJson({ ...existing, id: randomUUID() }, [])];
    const user: FakeUser = {
      id: randomUUID(),
      email,
      password,
      metadata: (body.data ?? {}) as Record<string, unknown>,
      confirmed: !this.confirmEmails,
    };
    this.users.set(email, user);
    if (this.confirmEmails) return [200, userJson(user)];
    return [200, await this.session(user)];
  }

  private async password(body: Record<string, unknown>, fail: Fail): Promise<Reply> {
    const user = this.users.get(String(body.email));
    if (!user || user.password !== body.password) {
      return fail(400, 'invalid_credentials', 'Invalid login credentials');
    }
    if (!user.confirmed) return fail(400, 'email_not_confirmed', 'Email not confirmed');
    return [200, await this.session(user)];
  }

  private async refresh(body: Record<string, unknown>, fail: Fail): Promise<Reply> {
    const record = this.refreshTokens.get(String(body.refresh_token));
    if (!record || !this.sessions.has(record.sessionId)) {
      return fail(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    }
    if (record.used || record.revoked) {
      for (const other of this.refreshTokens.values()) {
        if (other.sessionId === record.sessionId) other.revoked = true;
      }
      return fail(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    record.used = true;
    const user = [...this.users.values()].find((u) => u.id === record.userId)!;
    return [200, await this.session(user, record.sessionId)];
  }

  private async logout(authorization: string, fail: Fail): Promise<Reply> {
    const token = authorization.replace(/^Bearer /, '');
    let sessionId: unknown;
    try {
      sessionId = decodeJwt(token).session_id;
    } catch {
      return fail(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature');
    }
    this.sessions.delete(String(sessionId));
    return [204, ''];
  }

  private async session(user: FakeUser, sessionId: string = randomUUID()) {
    this.sessions.add(sessionId);
    const refreshToken = randomBytes(9).toString('base64url');
    this.refreshTokens.set(refreshToken, { sessionId, userId: user.id, used: false, revoked: false });
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    return {
      access_token: await this.accessToken(user, sessionId),
      token_type: 'bearer',
      expires_in: this.accessTokenTtlSec,
      expires_at: nowSec + this.accessTokenTtlSec,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  }
}

type Fail = (status: number, code: string, message: string) => Reply;

function userJson(user: FakeUser, identities?: unknown[]) {
  const at = '2026-01-01T00:00:00.000000Z';
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    phone: '',
    confirmation_sent_at: user.confirmed ? undefined : at,
    email_confirmed_at: user.confirmed ? at : undefined,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: user.metadata,
    identities: identities ?? [
      {
        identity_id: randomUUID(),
        id: user.id,
        user_id: user.id,
        identity_data: { email: user.email, email_verified: false, phone_verified: false, sub: user.id },
        provider: 'email',
        created_at: at,
        updated_at: at,
        email: user.email,
      },
    ],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}

import { randomUUID } from 'node:crypto';
import nock from 'nock';
import created from '../fixtures/session-created.json' with { type: 'json' };

/** A running fake of Browserbase's session API. */
export interface FakeBrowserbaseApi {
  /** Sessions by id, as the fake would return them. */
  readonly sessions: Map<string, Record<string, unknown>>;
  /** Removes the fake's interceptors. */
  stop(): void;
}

type Reply = [number, unknown, Record<string, string>];

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const SESSION = /^\/v1\/sessions\/([^/?]+)$/;
const LOGS = /^\/v1\/sessions\/([^/?]+)\/logs$/;
const NOT_FOUND: Reply = [
  404,
  { statusCode: 404, error: 'Not Found', message: 'Session not found' },
  JSON_HEADERS,
];

/**
 * A stateful nock fake of `POST/GET /v1/sessions…` in Browserbase's recorded shapes, for the port's
 * contract suite: it starts sessions, reports them, completes them on `REQUEST_RELEASE` (again and
 * again), answers 404 for unknown ids and requires the API key. Test support only, not exported.
 * (nock 15 hands reply functions the fetch `Request`.)
 */
export function fakeBrowserbaseApi(baseUrl: string, apiKey: string): FakeBrowserbaseApi {
  const sessions = new Map<string, Record<string, unknown>>();
  const scope = nock(baseUrl, { reqheaders: { 'x-bb-api-key': apiKey } }).persist();
  const find = (request: Request, pattern: RegExp) =>
    sessions.get(decodeURIComponent(pattern.exec(new URL(request.url).pathname)?.[1] ?? ''));

  scope.post('/v1/sessions').reply(async (request: Request): Promise<Reply> => {
    const body = (await request.json()) as { projectId: string; region: string; timeout: number };
    const id = randomUUID();
    const now = new Date();
    const { contextId: _context, ...shape } = created;
    const session: Record<string, unknown> = {
      ...shape,
      ...body,
      id,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      startedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + body.timeout * 1000).toISOString(),
      connectUrl: `wss://connect.usw2.browserbase.com?signingKey=sk-${id}`,
    };
    delete session.timeout;
    sessions.set(id, session);
    return [201, session, JSON_HEADERS];
  });

  scope.get(LOGS).reply((request: Request): Reply => {
    const session = find(request, LOGS);
    if (!session) return NOT_FOUND;
    const timestamp = Date.parse(String(session.startedAt));
    return [
      200,
      [{ sessionId: session.id, method: 'Target.attachedToTarget', pageId: 0, timestamp }],
      JSON_HEADERS,
    ];
  });

  scope.get(SESSION).reply((request: Request): Reply => {
    const session = find(request, SESSION);
    return session ? [200, session, JSON_HEADERS] : NOT_FOUND;
  });

  scope.post(SESSION).reply(async (request: Request): Promise<Reply> => {
    const session = find(request, SESSION);
    if (!session) return NOT_FOUND;
    const body = (await request.json()) as { status?: unknown };
    if (body.status !== 'REQUEST_RELEASE')
      return [400, { message: 'status must be REQUEST_RELEASE' }, JSON_HEADERS];
    if (session.status === 'RUNNING' || session.status === 'PENDING') {
      const now = new Date().toISOString();
      Object.assign(session, { status: 'COMPLETED', endedAt: now, updatedAt: now });
    }
    // The update answer is a plain Session: no connect URLs or signing key.
    const { connectUrl: _c, seleniumRemoteUrl: _s, signingKey: _k, ...answer } = session;
    return [200, answer, JSON_HEADERS];
  });

  return {
    sessions,
    stop: () => {
      scope.persist(false);
      nock.cleanAll();
    },
  };
}

import { randomUUID } from 'node:crypto';
import nock from 'nock';
import created from './fixtures/session-created.json' with { type: 'json' };

/** A running fake of Browserbase's session and context API. */
export interface FakeBrowserbaseApi {
  /** Sessions by id, as the fake would return them. */
  readonly sessions: Map<string, Record<string, unknown>>;
  /** Contexts by id, as the fake would return them. */
  readonly contexts: Map<string, Record<string, unknown>>;
  /** Contexts a running session uses: their delete is refused with 409. */
  readonly busyContexts: Set<string>;
  /** Removes the fake's interceptors. */
  stop(): void;
}

type Reply = [number, unknown, Record<string, string>];

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const SESSION = /^\/v1\/sessions\/([^/?]+)$/;
const LOGS = /^\/v1\/sessions\/([^/?]+)\/logs$/;
const DEBUG = /^\/v1\/sessions\/([^/?]+)\/debug$/;
const CONTEXT = /^\/v1\/contexts\/([^/?]+)$/;
const NOT_FOUND: Reply = [
  404,
  { statusCode: 404, error: 'Not Found', message: 'Session not found' },
  JSON_HEADERS,
];

/**
 * A stateful nock fake of `POST/GET /v1/sessions…` (with `/logs` and `/debug`) and `POST/GET/DELETE
 * /v1/contexts…` in Browserbase's recorded shapes, for the ports' contract suites: it starts
 * sessions, reports them, completes them on `REQUEST_RELEASE` (again and again), keeps contexts
 * (refusing to delete a busy one with 409), answers 404 for unknown ids and requires the API key.
 * Test support only, not exported.
 * (nock 15 hands reply functions the fetch `Request`.)
 */
export function fakeBrowserbaseApi(baseUrl: string, apiKey: string): FakeBrowserbaseApi {
  const sessions = new Map<string, Record<string, unknown>>();
  const contexts = new Map<string, Record<string, unknown>>();
  const busyContexts = new Set<string>();
  const scope = nock(baseUrl, { reqheaders: { 'x-bb-api-key': apiKey } }).persist();
  const find = (map: Map<string, Record<string, unknown>>, request: Request, pattern: RegExp) =>
    map.get(decodeURIComponent(pattern.exec(new URL(request.url).pathname)?.[1] ?? ''));

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
    const session = find(sessions, request, LOGS);
    if (!session) return NOT_FOUND;
    const timestamp = Date.parse(String(session.startedAt));
    return [
      200,
      [{ sessionId: session.id, method: 'Target.attachedToTarget', pageId: 0, timestamp }],
      JSON_HEADERS,
    ];
  });

  // Live-view URLs in the shape of fixtures/session-debug.json (not imported: the packed package
  // ships no fixtures), for the session asked about, with one page.
  scope.get(DEBUG).reply((request: Request): Reply => {
    const session = find(sessions, request, DEBUG);
    if (!session) return NOT_FOUND;
    const debug = `connect.usw2.browserbase.com/debug/${String(session.id)}`;
    const inspector = (fullscreen: boolean, target: string) =>
      `https://www.browserbase.com/devtools${fullscreen ? '-fullscreen' : ''}/inspector.html?wss=${debug}/devtools/${target}`;
    const page = 'page/8A1F0C2E9B7D4E6F';
    return [
      200,
      {
        debuggerFullscreenUrl: inspector(true, page),
        debuggerUrl: inspector(false, page),
        wsUrl: `wss://${debug}/devtools/browser/${String(session.id)}`,
        pages: [
          {
            id: '8A1F0C2E9B7D4E6F',
            url: 'about:blank',
            faviconUrl: '',
            title: '',
            debuggerUrl: inspector(false, page),
            debuggerFullscreenUrl: inspector(true, page),
          },
        ],
      },
      JSON_HEADERS,
    ];
  });

  scope.get(SESSION).reply((request: Request): Reply => {
    const session = find(sessions, request, SESSION);
    return session ? [200, session, JSON_HEADERS] : NOT_FOUND;
  });

  scope.post(SESSION).reply(async (request: Request): Promise<Reply> => {
    const session = find(sessions, request, SESSION);
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

  scope.post('/v1/contexts').reply(async (request: Request): Promise<Reply> => {
    const body = (await request.json()) as { projectId: string; name?: string };
    const id = randomUUID();
    const now = new Date().toISOString();
    contexts.set(id, { id, createdAt: now, updatedAt: now, projectId: body.projectId, name: body.name });
    const answer = {
      id,
      cipherAlgorithm: 'AES-256-CBC',
      initializationVectorSize: 16,
      publicKey: 'pk',
      uploadUrl: '',
    };
    return [200, answer, JSON_HEADERS];
  });

  scope.get(CONTEXT).reply((request: Request): Reply => {
    const context = find(contexts, request, CONTEXT);
    return context ? [200, context, JSON_HEADERS] : NOT_FOUND;
  });

  scope.delete(CONTEXT).reply((request: Request): Reply => {
    const context = find(contexts, request, CONTEXT);
    if (!context) return NOT_FOUND;
    if (busyContexts.has(String(context.id)))
      return [409, { statusCode: 409, error: 'Conflict', message: 'Context is in use' }, JSON_HEADERS];
    contexts.delete(String(context.id));
    return [204, '', {}];
  });

  return {
    sessions,
    contexts,
    busyContexts,
    stop: () => {
      scope.persist(false);
      nock.cleanAll();
    },
  };
}

import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import { planWebDriverCommand } from './planWebDriverCommand.ts';
import { serveNewSession } from './serveNewSession.ts';
import type { WebDriverUpstream } from './WebDriverUpstream.ts';
import { writeW3cError, writeW3cJson } from './w3cError.ts';

export type { WebDriverUpstream } from './WebDriverUpstream.ts';

/** The largest request body sent on (a file upload through the Grid's `se/file` included). */
export const MAX_WEBDRIVER_BODY_BYTES = 64 * 1024 * 1024;

/** Request headers never sent on: the client's credentials for this service, and hop-by-hop ones set again. */
const DROPPED_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-bb-api-key',
  'x-bb-signing-key', // Browserbase's Selenium clients send the session's key (and id) on every request
  'session-id',
  'origin',
  'referer',
  'transfer-encoding',
  'content-length',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
];

// One proxy and one pair of keep-alive agents for every session: requests carry their own target.
const proxy = createProxyServer({});
proxy.on('error', () => {}); // Every call passes its own error callback; this keeps a stray one from throwing.
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * Serves one request to a session's WebDriver endpoint (`planWebDriverCommand` decides): answered
 * here, refused with a W3C error, answered with the session itself (a new session:
 * `serveNewSession`), or sent on to the session's WebDriver server under its WebDriver
 * session id (`http-proxy-3`: the answer streams back as it comes, status and headers kept). The
 * body is read first, at most `MAX_WEBDRIVER_BODY_BYTES`; a DevTools command in it is checked by the
 * session's CDP policy and sent on as the policy re-serialised it. The response is always ended.
 */
export function serveWebDriverCommand(
  req: IncomingMessage,
  res: ServerResponse,
  subpath: string,
  upstream: WebDriverUpstream,
): void {
  const plan = planWebDriverCommand(req.method ?? 'GET', subpath, upstream);
  if (plan.kind === 'answer' || plan.kind === 'refuse') {
    req.resume();
    if (plan.kind === 'answer') writeW3cJson(res, plan.status, plan.body);
    else writeW3cError(res, plan.status, plan.error, plan.message);
    return;
  }
  void readBody(req).then(
    (body) => {
      if (body === null) {
        writeW3cError(
          res,
          413,
          'invalid argument',
          `The request body is over ${MAX_WEBDRIVER_BODY_BYTES} bytes.`,
        );
        return;
      }
      if (plan.kind === 'newSession') {
        void serveNewSession(res, body, upstream).catch(() => res.destroy());
        return;
      }
      if (plan.kind === 'cdp') {
        const checked = checkCdpBody(body, upstream);
        if (typeof checked !== 'string') {
          writeW3cError(res, checked.status, checked.error, checked.message);
          return;
        }
        body = Buffer.from(checked, 'utf8');
      }
      send(req, res, `${upstream.baseUrl.replace(/\/+$/, '')}${plan.path}`, body, upstream.headers);
    },
    () => res.destroy(),
  );
}

/** Sends the request on to `target` with `body`, streaming the answer back. */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  body: Buffer,
  extraHeaders: Readonly<Record<string, string>> | undefined,
): void {
  for (const name of DROPPED_HEADERS) delete req.headers[name];
  req.headers['content-length'] = String(body.length);
  const url = new URL(target);
  proxy.web(
    req,
    res,
    {
      target: url,
      ignorePath: true,
      changeOrigin: true,
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      headers: { ...extraHeaders },
      buffer: Readable.from([body]),
    },
    (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? error.message;
      writeW3cError(res, 502, 'unknown error', `The session's WebDriver server did not answer (${code}).`);
    },
  );
}

/** The request body, or null when it is over the limit (the rest is not read). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_WEBDRIVER_BODY_BYTES) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_WEBDRIVER_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** A DevTools command's body (`{ cmd, params }`) as the CDP policy lets it through, or why not. */
function checkCdpBody(
  body: Buffer,
  upstream: WebDriverUpstream,
): string | { status: number; error: 'invalid argument' | 'unsupported operation'; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { status: 400, error: 'invalid argument', message: 'The body is not JSON.' };
  }
  const { cmd, params } = (parsed ?? {}) as { cmd?: unknown; params?: unknown };
  if (typeof cmd !== 'string')
    return { status: 400, error: 'invalid argument', message: 'A DevTools command needs a string "cmd".' };
  const decision = upstream.checkCdp(JSON.stringify({ id: 1, method: cmd, params: params ?? {} }));
  if (!decision.allowed) return { status: 403, error: 'unsupported operation', message: decision.message };
  return JSON.stringify({ cmd: decision.command.method, params: decision.command.params ?? {} });
}

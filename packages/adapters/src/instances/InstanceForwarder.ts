import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import type { Logger } from 'pino';
import { INSTANCE_AUTH_HEADER, type InstanceAuth } from './InstanceAuth.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';
import type { SessionKey } from './InstanceRegistry.ts';

/** What the forwarder did with a request: carried it to its holder, or left it to this instance. */
export type ForwardOutcome = 'forwarded' | 'here';

/**
 * Carries WebSocket upgrades (a session's `connectUrl`, its live view) and raw HTTP requests (its
 * WebDriver endpoint) that reach an instance which does not hold the session's browser to the one
 * that does, end to end, through `http-proxy-3`: same path and query, headers and body streamed, plus
 * this instance's signature (`InstanceAuth`). The holder serves it under its own rules (signing key,
 * CDP command policy, live-view token) as if the client had come to it. A request signed by another
 * instance was forwarded already and is never carried on again; one whose holder is silent, or that
 * no instance holds, is left here (and refused here). The holder failing mid-way closes the socket,
 * or answers 502 before a response began.
 */
export class InstanceForwarder {
  private readonly directory: InstanceDirectory;
  private readonly auth: InstanceAuth;
  private readonly logger: Pick<Logger, 'warn'>;
  private readonly proxy = createProxyServer({ xfwd: false, ws: true });

  constructor(deps: { directory: InstanceDirectory; auth: InstanceAuth; logger: Pick<Logger, 'warn'> }) {
    this.directory = deps.directory;
    this.auth = deps.auth;
    this.logger = deps.logger;
    this.proxy.on('error', (error, _req, target) => {
      this.logger.warn({ err: error }, 'a request forwarded to another instance failed');
      if ('writeHead' in target && !target.headersSent) {
        target.writeHead(502, { 'content-type': 'application/problem+json' });
        target.end(
          JSON.stringify({
            type: 'about:blank',
            title: 'Bad Gateway',
            status: 502,
            code: 'provider_unavailable',
            detail: 'The instance holding this session could not be reached.',
          }),
        );
      } else target.destroy();
    });
  }

  /** Carries a WebSocket upgrade about `key` to its holder, when another live instance holds it. */
  async upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    key: SessionKey,
  ): Promise<ForwardOutcome> {
    const target = await this.target(req, key);
    if (!target) return 'here';
    this.proxy.ws(req, socket, head, target);
    return 'forwarded';
  }

  /** Carries an HTTP request about `key` to its holder, when another live instance holds it. */
  async request(req: IncomingMessage, res: ServerResponse, key: SessionKey): Promise<ForwardOutcome> {
    const target = await this.target(req, key);
    if (!target) return 'here';
    this.proxy.web(req, res, target);
    return 'forwarded';
  }

  close(): void {
    this.proxy.close();
  }

  private async target(
    req: IncomingMessage,
    key: SessionKey,
  ): Promise<{ target: string; headers: Record<string, string> } | null> {
    if (req.headers[INSTANCE_AUTH_HEADER] !== undefined) return null;
    const record = (await this.directory.liveHolder(key))?.record;
    if (!record) return null;
    const origin = new URL(record.url).origin;
    return {
      target: origin,
      headers: {
        [INSTANCE_AUTH_HEADER]: this.auth.sign({
          ...{ method: req.method ?? 'GET', path: req.url ?? '/', target: record.id },
          body: 'forwarded',
        }),
      },
    };
  }
}

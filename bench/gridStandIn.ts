/**
 * A zero-latency Selenium Grid stand-in for the `instances` scenario, as a process of its own: the
 * W3C calls the Selenium Grid provider makes (`POST /session` with an `se:cdp` address, `DELETE
 * /session/{id}`, `GET /session/{id}/timeouts`, `GET /status`) answered at once, and a CDP WebSocket
 * per session that answers every command with an empty result. No browser: it measures what
 * Browserdeck itself spends per session, as the Browserbase stand-in does for that provider.
 *
 *   PORT=4002 node bench/gridStandIn.ts
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const sessions = new Set<string>();
const port = Number(process.env.PORT ?? 0);
const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
const noSuchSession = json(404, { value: { error: 'invalid session id', message: 'no such session' } });

function answer(method: string, path: string): { status: number; body: string } {
  if (method === 'GET' && path === '/status')
    return json(200, { value: { ready: true, message: 'stand-in' } });
  if (method === 'POST' && path === '/session') {
    const id = randomUUID().replaceAll('-', '');
    sessions.add(id);
    return json(200, {
      value: {
        sessionId: id,
        capabilities: { browserName: 'chrome', 'se:cdp': `ws://127.0.0.1:${port}/session/${id}/se/cdp` },
      },
    });
  }
  const match = /^\/session\/([^/]+)(\/timeouts)?$/.exec(path);
  if (!match || !sessions.has(match[1]!)) return noSuchSession;
  if (method === 'DELETE' && !match[2]) {
    sessions.delete(match[1]!);
    return json(200, { value: null });
  }
  if (method === 'GET' && match[2])
    return json(200, { value: { implicit: 0, pageLoad: 300000, script: 30000 } });
  return noSuchSession;
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const { status, body } = answer(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
});

/** Results the log recorder reads; every other command gets `{}`. */
const RESULTS: Record<string, unknown> = {
  'Target.getTargets': { targetInfos: [] },
  'Target.attachToTarget': { sessionId: 'stand-in' },
  'Target.createTarget': { targetId: 'stand-in' },
};

const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
server.on('upgrade', (req, socket, head) => {
  const id = /^\/session\/([^/]+)\/se\/cdp$/.exec(new URL(req.url ?? '/', 'http://x').pathname)?.[1];
  if (!id || !sessions.has(id)) {
    socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    return;
  }
  sockets.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (data) => {
      const {
        id: commandId,
        method,
        sessionId,
      } = JSON.parse(String(data)) as {
        id: number;
        method: string;
        sessionId?: string;
      };
      ws.send(
        JSON.stringify({ id: commandId, result: RESULTS[method] ?? {}, ...(sessionId ? { sessionId } : {}) }),
      );
    });
  });
});

server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  for (const ws of sockets.clients) ws.terminate();
  server.close(() => process.exit(0));
});

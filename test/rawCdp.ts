import { once } from 'node:events';
import WebSocket from 'ws';

/** A raw CDP client on a WebSocket: commands by id, no domain enabled unless asked. */
export interface RawCdp {
  readonly ws: WebSocket;
  close(): void;
}

/** Opens a raw CDP client on `url` (a session's `connectUrl`). */
export async function openCdp(url: string): Promise<RawCdp> {
  const ws = new WebSocket(url, { maxPayload: 512 * 1024 * 1024 });
  await once(ws, 'open');
  return { ws, close: () => ws.close() };
}

let nextId = 1;

/** Sends one command (on a flat target session when `sessionId` is given) and resolves with its result. */
export function cdpCall<T = Record<string, unknown>>(
  cdp: RawCdp,
  method: string,
  params: Record<string, unknown> = {},
  sessionId?: string,
): Promise<T> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      if (message.id !== id) return;
      cdp.ws.off('message', onMessage);
      if (message.error) reject(new Error(`${method}: ${message.error.message}`));
      else resolve((message.result ?? {}) as T);
    };
    cdp.ws.on('message', onMessage);
    cdp.ws.once('close', () => reject(new Error(`${method}: the connection closed`)));
    cdp.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });
}

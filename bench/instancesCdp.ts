/** A raw CDP client for the `instances` scenario: one WebSocket, commands by id, a page attached (flat). */
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A CDP connection with one page target attached, for timed `Runtime.evaluate` round trips. */
export interface PageCdp {
  /** Upgrade request → open (ms). */
  readonly openMs: number;
  /** `Runtime.evaluate 1+1` on the attached page; resolves with its round trip (ms). */
  evaluate(): Promise<number>;
  /** Closes the WebSocket and waits until it is closed. */
  close(): Promise<void>;
}

/** Opens `url` (a session's connectUrl), attaches to its first page (flat) and returns the client. */
export async function openPageCdp(url: string): Promise<PageCdp> {
  const t0 = performance.now();
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await once(ws, 'open');
  const openMs = performance.now() - t0;
  const pending = new Map<
    number,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as Reply;
    if (reply.id === undefined) return;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.error) waiting.reject(new Error(reply.error.message));
    else waiting.resolve(reply.result ?? {});
  });
  ws.on('close', () => {
    for (const waiting of pending.values()) waiting.reject(new Error('the CDP connection closed'));
    pending.clear();
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  const { targetInfos } = (await send('Target.getTargets')) as {
    targetInfos: Array<{ targetId: string; type: string }>;
  };
  let page = targetInfos.find((t) => t.type === 'page')?.targetId;
  if (!page)
    page = ((await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string }).targetId;
  const { sessionId } = (await send('Target.attachToTarget', { targetId: page, flatten: true })) as {
    sessionId: string;
  };
  return {
    openMs,
    async evaluate() {
      const start = performance.now();
      const result = (await send(
        'Runtime.evaluate',
        { expression: '1 + 1', returnByValue: true },
        sessionId,
      )) as { result?: { value?: unknown } };
      const ms = performance.now() - start;
      if (result.result?.value !== 2) throw new Error(`Runtime.evaluate answered ${JSON.stringify(result)}`);
      return ms;
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      const closed = once(ws, 'close');
      ws.close();
      await closed;
    },
  };
}

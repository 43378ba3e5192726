import { once } from 'node:events';
import WebSocket from 'ws';

/** An event a client received (`params` loosely typed: tests read what the protocol sends). */
export interface ReceivedEvent {
  readonly method: string;
  // biome-ignore lint/suspicious/noExplicitAny: protocol payloads, read by the tests
  readonly params: Record<string, any>;
  readonly sessionId?: string;
}

/** A whole CDP answer: `result` or `error`. */
// biome-ignore lint/suspicious/noExplicitAny: protocol payloads, read by the tests
export type Answer = { readonly result?: any; readonly error?: { code: number; message: string } };

/** A raw CDP client that keeps every event it received, so a wait never misses one that came first. */
export interface EventedCdp {
  /** Sends a command; resolves with its answer, or with an error once its session is detached. */
  call(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<Answer>;
  /** Resolves with the first event, received so far or later, that `match` accepts. */
  next(match: (event: ReceivedEvent) => boolean): Promise<ReceivedEvent>;
  /** Evaluates `expression` (promises awaited) in `sessionId`'s target: its value, or throws. */
  evaluate(expression: string, sessionId: string): Promise<unknown>;
  /** True for the event saying `sessionId` was detached (its target closed, or a detach). */
  detached(event: ReceivedEvent, sessionId: string): boolean;
  /** Every event received, in order. */
  readonly events: readonly ReceivedEvent[];
  close(): void;
}

/** Opens an `EventedCdp` on a WebSocket `url` (a session's `connectUrl`). */
export async function eventedCdp(url: string): Promise<EventedCdp> {
  const ws = new WebSocket(url);
  await once(ws, 'open');
  const events: ReceivedEvent[] = [];
  const waiters = new Set<{ match: (e: ReceivedEvent) => boolean; resolve: (e: ReceivedEvent) => void }>();
  const pending = new Map<number, { sessionId?: string | undefined; resolve: (a: Answer) => void }>();
  const detached = (event: ReceivedEvent, sessionId: string) =>
    event.method === 'Target.detachedFromTarget' && event.params.sessionId === sessionId;
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (typeof message.id === 'number') {
      pending.get(message.id)?.resolve(message);
      pending.delete(message.id);
      return;
    }
    events.push(message);
    for (const waiter of waiters)
      if (waiter.match(message)) {
        waiters.delete(waiter);
        waiter.resolve(message);
      }
    // Chromium does not answer what it had not run when a session went: those calls fail instead.
    for (const [id, call] of pending)
      if (call.sessionId && detached(message, call.sessionId)) {
        pending.delete(id);
        call.resolve({ error: { code: -32001, message: 'session detached' } });
      }
  });
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Answer>((resolve) => {
      const id = nextId++;
      if (sessionId && events.some((e) => detached(e, sessionId)))
        return resolve({ error: { code: -32001, message: 'session detached' } });
      pending.set(id, { sessionId, resolve });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  const next = (match: (e: ReceivedEvent) => boolean) =>
    new Promise<ReceivedEvent>((resolve) => {
      const seen = events.find(match);
      if (seen) resolve(seen);
      else waiters.add({ match, resolve });
    });
  const evaluate = async (expression: string, sessionId: string) => {
    const answer = await call(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (!answer.result || answer.result.exceptionDetails) throw new Error(JSON.stringify(answer));
    return answer.result.result.value as unknown;
  };
  return { call, next, evaluate, detached, events, close: () => ws.close() };
}

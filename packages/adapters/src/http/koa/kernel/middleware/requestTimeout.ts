import type { Context, Middleware } from 'koa';
import { httpState } from '../../HttpState.ts';
import { httpError } from '../errors/toDomainError.ts';

/** http-api.md §10: a request that takes longer than this is cut off with 503. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** How long a cut-off connection may take to deliver its 503 before it is destroyed regardless. */
export const CUT_OFF_FLUSH_MS = 5_000;

/**
 * Cuts off a request that runs longer than `timeoutMs` with 503 `request_timeout`, and closes its
 * connection: the answer says `Connection: close`, and the socket is ended once the answer is
 * flushed (destroyed after `CUT_OFF_FLUSH_MS` if the client does not take it). A client still
 * trickling a body therefore loses the connection with the answer, instead of holding it until
 * Node's own request timeout. The late handler keeps running (it cannot be cancelled) but is told
 * not to write the response. A route that holds its answer on purpose (a long poll) declares
 * `extraTimeMs`, and is cut off that much later.
 */
export function requestTimeout(timeoutMs: number): Middleware {
  return async (ctx, next) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      const cutOff = (tookMs: number) => {
        httpState(ctx).timedOut = true;
        closeAfterAnswer(ctx);
        reject(httpError('request_timeout', `The request took longer than ${tookMs} ms and was cut off.`));
      };
      timer = setTimeout(() => {
        // The route is chosen long before this fires: its own allowance is known by now.
        const extraMs = httpState(ctx).extraTimeMs ?? 0;
        if (extraMs > 0) timer = setTimeout(() => cutOff(timeoutMs + extraMs), extraMs);
        else cutOff(timeoutMs);
      }, timeoutMs);
    });
    try {
      await Promise.race([next(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Marks the answer as the connection's last, and closes the socket once it is written. */
function closeAfterAnswer(ctx: Context): void {
  ctx.set('Connection', 'close');
  const { socket } = ctx.req;
  const destroy = () => socket.destroy();
  const hardStop = setTimeout(destroy, CUT_OFF_FLUSH_MS);
  hardStop.unref();
  socket.once('close', () => clearTimeout(hardStop));
  // `end` sends what is buffered and then FIN; the destroy drops whatever body is still arriving.
  ctx.res.once('finish', () => socket.end(destroy));
}

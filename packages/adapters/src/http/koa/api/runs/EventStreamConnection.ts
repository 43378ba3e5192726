import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Connection } from 'better-sse';

/**
 * better-sse's `Connection` over a stream that a route answers as its body: Koa writes the head and
 * pipes the body after the middleware has returned (so the request cut-off, which ends with the
 * middleware, never applies to it), and destroys it when the client goes away, which aborts `signal`
 * and so disconnects the better-sse `Session` on top. `end()` closes the stream after the last event.
 */
export class EventStreamConnection extends Connection {
  readonly url: URL;
  readonly request: Request;
  readonly response: Response;
  /** The response body. */
  readonly body = new PassThrough();
  private readonly gone = new AbortController();

  constructor() {
    super();
    // better-sse reads the last event id from these; the route validates and passes its own.
    this.url = new URL('http://localhost/');
    this.request = new Request(this.url, { signal: this.gone.signal });
    this.response = new Response(null, { status: 200, headers: Connection.constants.RESPONSE_HEADERS });
    this.body.once('close', () => this.gone.abort());
  }

  /** Aborted once the client has gone (the body was destroyed) or the stream was ended. */
  get signal(): AbortSignal {
    return this.gone.signal;
  }

  /** Koa writes the head from the route's answer. */
  sendHead = (): void => {};

  sendChunk = (chunk: string): void => {
    if (this.body.writable) this.body.write(chunk);
  };

  cleanup = (): void => {};

  /** Resolves once a slow client has taken what was written, or it has gone. */
  async drained(): Promise<void> {
    if (!this.body.writableNeedDrain || this.gone.signal.aborted) return;
    await once(this.body, 'drain', { signal: this.gone.signal }).catch(() => undefined);
  }

  /** Ends the body after what was written. */
  end(): void {
    if (this.body.writable) this.body.end();
  }
}

import type http from 'node:http';
import { type RequestError, Server } from 'proxy-chain';

/** proxy-chain's server, answering failed requests the way `answer` says (null: proxy-chain's own answer). */
export class EgressServer extends Server {
  private readonly answer: (
    request: http.IncomingMessage,
    error: NodeJS.ErrnoException,
  ) => RequestError | null;

  constructor(
    options: ConstructorParameters<typeof Server>[0],
    answer: (request: http.IncomingMessage, error: NodeJS.ErrnoException) => RequestError | null,
  ) {
    super(options);
    this.answer = answer;
  }

  override failRequest(request: http.IncomingMessage, error: NodeJS.ErrnoException): void {
    // Whatever the browser sent with the request is read and dropped, so the answer is not lost to a reset.
    request.resume();
    super.failRequest(request, this.answer(request, error) ?? error);
  }
}

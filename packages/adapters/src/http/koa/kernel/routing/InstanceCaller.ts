import type { IncomingMessage } from 'node:http';

/** The caller of an `instance` route: another instance of the deployment, by its id. */
export interface InstanceCaller {
  readonly kind: 'instance';
  readonly from: string;
  /**
   * The request's body as its signature proves it: nothing for a call signed without one, or a
   * streamed body that fails at its end when its closing tag does not prove it.
   */
  readonly body: AsyncIterable<Uint8Array>;
}

/**
 * Checks that a request to an `instance` route is a call another live instance signed for this one;
 * throws an `AuthError` (`unauthorized`) otherwise. The router calls it before
 * anything else of the route runs.
 */
export type AuthenticateInstance = (request: {
  readonly req: IncomingMessage;
  /** The path with its query as the client sent it (before any mount prefix was taken off). */
  readonly originalUrl: string;
}) => Promise<InstanceCaller>;

import type { IncomingMessage } from 'node:http';
import { AuthError } from '@browserdeck/domain';
import type { AuthenticateInstance } from '../http/koa/kernel/routing/InstanceCaller.ts';
import { INSTANCE_AUTH_HEADER, type InstanceAuth } from './InstanceAuth.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';

const REFUSED = 'This route is for other Browserdeck instances.';

/**
 * The check of every `instance` route (the calls between instances): the request must carry a
 * header `auth` accepts (signed for this instance over the method, the path with its query and the
 * body, in time, its nonce new), a body as signed (none for `empty`: a call with a body it did not
 * sign is refused; a `stream` is proven by its closing tag as it is read), and come from an
 * instance that is registered and alive (`directory`). Anything else is 401, saying nothing more.
 */
export function authenticateInstanceCall(deps: {
  auth: InstanceAuth;
  directory: Pick<InstanceDirectory, 'isLive'>;
}): AuthenticateInstance {
  return async ({ req, originalUrl }) => {
    const call = deps.auth.verify({
      method: req.method ?? 'GET',
      path: originalUrl,
      header: req.headers[INSTANCE_AUTH_HEADER],
    });
    if (!call || call.body === 'forwarded') throw new AuthError('unauthorized', REFUSED);
    if (call.body === 'empty' && hasBody(req)) throw new AuthError('unauthorized', REFUSED);
    if (!(await deps.directory.isLive(call.from))) throw new AuthError('unauthorized', REFUSED);
    return {
      kind: 'instance',
      from: call.from,
      body: call.body === 'stream' ? deps.auth.openStream(call, req) : emptyBody(),
    };
  };
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { ServerProcess } from './serverProcess.ts';

/** What every instance of one deployment shares: the secret key and the token-signing key. */
export function sharedInstanceSecrets(): { SECRET_KEY: string; JWT_PRIVATE_KEY: string } {
  return {
    SECRET_KEY: randomBytes(32).toString('base64'),
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };
}

/** A JSON request to one instance: the status, the parsed body and the headers. */
export async function callInstance(
  server: Pick<ServerProcess, 'url'>,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** `url` as if a load balancer had sent it to `server`: same path and query, `server`'s host. */
export function through(server: Pick<ServerProcess, 'url'>, url: string): string {
  const target = new URL(url);
  target.host = new URL(server.url).host;
  return target.toString();
}

/** Polls `check` every 200 ms until it answers something else than false; fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

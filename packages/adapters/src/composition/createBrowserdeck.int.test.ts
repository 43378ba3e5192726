import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConflictError, type SignUp } from '@browserdeck/domain';
import {
  FakeBrowserProvider,
  InMemoryIdentityProvider,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { assertProblem, inMemoryStorage } from '@browserdeck/testing/adapters';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Browserdeck } from './Browserdeck.ts';
import type { BrowserdeckOptions } from './BrowserdeckOptions.ts';
import { createBrowserdeck } from './createBrowserdeck.ts';

/** What `overrides` replace in the one composition: the use cases, database hooks and settings. */
let browserdeck: Browserdeck | undefined;
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  await browserdeck?.close();
  browserdeck = undefined;
});

async function compose(options: Pick<BrowserdeckOptions, 'overrides' | 'http'>): Promise<string> {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  browserdeck = await createBrowserdeck({
    database: { storage: inMemoryStorage(clock) },
    identity: { provider: new InMemoryIdentityProvider({ ids, clock }) },
    browsers: { provider: new FakeBrowserProvider({ clock }) },
    secretKey: 'a passphrase for this test only',
    logger: pino({ level: 'silent' }),
    clock,
    ids,
    ...options,
  });
  server = createServer(browserdeck.http.app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createBrowserdeck overrides', () => {
  it('replace a use case for in-process callers and HTTP clients alike', async () => {
    const taken: Pick<SignUp, 'execute'> = {
      execute: () => Promise.reject(new ConflictError('email_taken', 'Taken, says the replacement.')),
    };
    const url = await compose({ overrides: { useCases: { auth: { signUp: taken } } } });
    expect(browserdeck!.useCases.auth.signUp).toBe(taken);
    const res = await fetch(`${url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse' }),
    });
    const problem = await assertProblem(res, 409, 'email_taken');
    expect(problem.detail).toBe('Taken, says the replacement.');
  });

  it('replace a database hook and settings one by one, keeping the rest of `http`', async () => {
    const url = await compose({
      http: { corsOrigins: ['https://app.example'] },
      overrides: {
        database: { checkReadiness: () => Promise.reject(new Error('down')) },
        http: { metricsEndpoint: { separate: true } },
      },
    });
    await assertProblem(await fetch(`${url}/readyz`), 503, 'database_unavailable');
    await assertProblem(await fetch(`${url}/metrics`), 404, 'not_found');
    const cors = await fetch(`${url}/healthz`, { headers: { Origin: 'https://app.example' } });
    expect(cors.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('refuse a use case that does not exist, instead of leaving the real one in place', async () => {
    const overrides = { useCases: { auth: { signUpp: { execute: async () => {} } } } } as never;
    await expect(compose({ overrides })).rejects.toThrow('overrides.useCases.auth.signUpp');
  });

  it('leave the route table the app serves on `http.routes`', async () => {
    await compose({});
    const operations = browserdeck!.http.routes.map((route) => route.operationId);
    expect(operations).toContain('createSession');
    expect(operations).toContain('signUp');
  });
});

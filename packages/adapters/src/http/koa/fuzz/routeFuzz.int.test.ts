import { createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBrowserbaseError } from '../browserbase/writeBrowserbaseError.ts';
import { type AnyRoute, isPassthroughRoute, isUpgradeRoute } from '../kernel/routing/RouteDefinition.ts';
import { rawPayload } from './bodyArbitrary.ts';
import { FuzzWorld } from './FuzzWorld.ts';
import type { FuzzRequest } from './requestArbitrary.ts';
import { percentEncode, requestArbitrary } from './requestArbitrary.ts';

/**
 * Property-based fuzzing of every route of the route table through the real Koa app: whatever the
 * request, the answer is never a 5xx, every 4xx is a complete problem+json, a 4xx stores nothing and
 * sends nothing to the provider, and Object.prototype stays clean. Each route runs against a fresh
 * app, so a failure replays from its seed alone.
 *
 * Reproduce a failure with the seed it prints: `FUZZ_SEED=<seed> npx vitest run <this file> -t '<route>'`.
 * `FUZZ_REQUESTS` sets the total number of generated requests (default 10 000).
 */
/** Paths only the Browserbase-compatible API has. */
const BROWSERBASE_PATH = /^\/v1\/(sessions|contexts|extensions|functions)(\/|$)/;
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
/** Sign-in and sign-up are limited per minute; moving the clock keeps most auth requests past the limiter. */
const ADVANCE_CLOCK_EVERY = 40;

// Upgrade routes (WebSockets) are not served over plain HTTP, and passthrough routes (a provider's
// WebDriver endpoints) answer in their own protocol; their own tests cover them.
const routeTableOf = (t: TestApp): readonly AnyRoute[] =>
  t.browserdeck.http.routes.filter((route) => !isUpgradeRoute(route) && !isPassthroughRoute(route));

const listing = await createTestApp();
const routes = routeTableOf(listing).map((route, index) => ({
  operationId: route.operationId,
  index,
  name: `${route.method} ${route.path}`,
}));
await listing.close();

const runsPerRoute = Math.ceil(TOTAL_REQUESTS / routes.length);
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
let sent = 0;
const statuses = new Map<number, number>();
const started = performance.now();

console.info(`route fuzz: seed ${SEED}, ${routes.length} routes × ${runsPerRoute} runs`);

afterAll(() => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  console.info(`route fuzz: seed ${SEED}, ${sent} requests in ${seconds} s; statuses ${byStatus.join(' ')}`);
});

/** Sends generated requests to one app and checks every invariant of each answer. */
function checker(t: TestApp, world: FuzzWorld, route: AnyRoute): (request: FuzzRequest) => Promise<void> {
  const urlOf = (request: FuzzRequest): string => {
    const query = request.query
      .map(([k, v]) => `${percentEncode(world.resolve(k))}=${percentEncode(world.resolve(v))}`)
      .join('&');
    return `${t.baseUrl}${world.resolve(request.path)}${query ? `?${query}` : ''}`;
  };

  const initOf = (request: FuzzRequest): RequestInit => {
    const headers = new Headers();
    for (const [name, value] of request.headers) headers.append(name, world.resolve(value));
    const { body } = request;
    let payload: string | Uint8Array | undefined;
    if (body.kind === 'json') {
      headers.set('Content-Type', 'application/json');
      payload = world.resolve(JSON.stringify(body.value) ?? 'null');
    } else if (body.kind === 'raw') {
      if (body.contentType !== null) headers.set('Content-Type', body.contentType);
      const raw = rawPayload(body);
      payload = typeof raw === 'string' ? world.resolve(raw) : raw;
    }
    // fetch refuses a body on GET and HEAD.
    const bodyless = request.method === 'GET' || request.method === 'HEAD';
    return {
      method: request.method,
      headers,
      ...(payload === undefined || bodyless ? {} : { body: payload }),
    };
  };

  /** A short description of the request for assertion messages (bodies can be a megabyte). */
  const describeRequest = (request: FuzzRequest): string => {
    const body = request.body.kind === 'json' ? JSON.stringify(request.body.value) : request.body.kind;
    return `${request.method} ${urlOf(request).slice(0, 300)} body=${(body ?? 'undefined').slice(0, 300)}`;
  };

  return async (request) => {
    if (++sent % ADVANCE_CLOCK_EVERY === 0) t.clock.advance(61_000);
    await world.ensure();
    const before = world.snapshot();
    const providerCalls = t.provider.calls.length;
    const response = await fetch(urlOf(request), initOf(request));
    const text = await response.text();
    const status = response.status;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const where = `${describeRequest(request)} → ${status} ${text.slice(0, 500)}`;

    expect(status, where).toBeLessThan(500);
    const requestId = response.headers.get('x-request-id');
    expect(requestId, where).toBeTruthy();
    // The Browserbase-compatible API answers errors in Browserbase's shape (ADR 0011): always on its own
    // paths; on a path it shares with ours (`/v1/projects`), when its route took the request.
    const pathname = new URL(urlOf(request)).pathname;
    const sameMethod =
      request.method === route.method || (request.method === 'HEAD' && route.method === 'GET');
    const sharedPath = route.writeError === writeBrowserbaseError && sameMethod;
    const contentType = response.headers.get('content-type') ?? '';
    const browserbase =
      BROWSERBASE_PATH.test(pathname) || (sharedPath && !contentType.startsWith('application/problem+json'));
    if (status >= 400 && browserbase) {
      expect(contentType, where).toMatch(/^application\/json/);
      if (request.method !== 'HEAD') {
        const error = JSON.parse(text) as Record<string, unknown>;
        expect(typeof error.code, where).toBe('string');
        expect(typeof error.message, where).toBe('string');
        expect(error.statusCode, where).toBe(status);
        expect(error.requestId, where).toBe(requestId);
      }
    } else if (status >= 400) {
      expect(contentType, where).toMatch(/^application\/problem\+json/);
      if (request.method !== 'HEAD') {
        const problem = JSON.parse(text) as { code?: unknown; status?: unknown; requestId?: unknown };
        expect(typeof problem.code, where).toBe('string');
        expect(problem.status, where).toBe(status);
        expect(problem.requestId, where).toBe(requestId);
      }
    }
    if (status >= 400) {
      expect(world.snapshot(), `stored state changed on ${where}`).toBe(before);
      expect(t.provider.calls.slice(providerCalls), `provider called on ${where}`).toEqual([]);
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort(), where).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted, where).toBeUndefined();
  };
}

describe('every route survives generated requests', () => {
  it.each(routes)('$name', async ({ operationId, index }) => {
    const t = await createTestApp();
    try {
      const world = await FuzzWorld.create(t);
      const route = routeTableOf(t).find((r) => r.operationId === operationId);
      if (!route) throw new Error(`no route ${operationId}`);
      const ctx = {
        providerName: t.provider.name,
        regions: t.provider.regions,
        email: world.email,
        password: world.password,
      };
      await fc.assert(fc.asyncProperty(requestArbitrary(route, ctx), checker(t, world, route)), {
        numRuns: runsPerRoute,
        seed: SEED + index,
      });
    } finally {
      await t.close();
    }
  });

  it(`sent at least ${TOTAL_REQUESTS} requests`, () => {
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
  });
});

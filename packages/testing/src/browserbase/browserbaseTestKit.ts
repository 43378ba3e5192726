// nock patches `globalThis.fetch` when it loads, and the Browserbase SDK captures `fetch` when it
// loads. nock is imported here, at the top of every test file's graph; the provider loads the SDK
// only on its first call, and hands it a `fetch` that looks `globalThis.fetch` up per request.

import { BrowserbaseProvider, type BrowserbaseProviderDeps } from '@browserdeck/adapters/browserbase';
import { type CreateBrowserRequest, type Logger, ProviderError } from '@browserdeck/domain';
import { browserRequest, ManualClock } from '@browserdeck/testing';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, type Mock, vi } from 'vitest';
import created from './fixtures/session-created.json' with { type: 'json' };

/* Test support for the nock-based BrowserbaseProvider tests; not exported from the package. */

export const BASE = 'https://api.browserbase.test';
export const API_KEY = 'bb_live_9Zq3X7secretKEY';
export const PROJECT = '9d1b7c42-8e0a-4f3b-b6d5-2c7e1a0f4b98';
export const ID = created.id;
export const JSON_HEADERS = { 'Content-Type': 'application/json' };

export const request: CreateBrowserRequest = browserRequest({
  sessionId: '0197f3a2-6b1e-7c44-9a0d-1e2f3a4b5c6d',
  projectId: '0197f3a0-11aa-7bbb-8ccc-0d0e0f101112',
  providerProjectId: PROJECT,
  region: 'eu-central-1',
  timeoutSec: 600,
  contextId: 'c6e8f1a0-2b4d-4f9e-8a17-5d3c0b9e2f61',
  extensionId: 'ext_4a1b2c3d',
  keepAlive: null,
});

/** A provider pointed at the fake, with fast retries, a manual clock and a spy logger. */
export function build(overrides: Partial<BrowserbaseProviderDeps> = {}): {
  provider: BrowserbaseProvider;
  clock: ManualClock;
  logger: { warn: Mock<Logger['warn']>; error: Mock<Logger['error']> };
} {
  const clock = new ManualClock('2026-03-02T10:15:00.000Z');
  const logger = { warn: vi.fn<Logger['warn']>(), error: vi.fn<Logger['error']>() };
  const provider = new BrowserbaseProvider({
    apiKey: API_KEY,
    projectId: PROJECT,
    baseUrl: BASE,
    timeoutMs: 2_000,
    readRetryDelayMs: 1,
    // No background look-ups after a failed create unless a test asks for them (they would outlive it).
    orphanSweepDelaysMs: [],
    clock,
    logger,
    ...overrides,
  });
  return { provider, clock, logger };
}

/** Every call the Browserbase fake received: method, path and parsed body. */
export const seen: Array<{ method: string; path: string; body: unknown; apiKey: unknown }> = [];

/** The Browserbase fake: it answers only requests that carry the API key, and records each one. */
export function browserbase() {
  return nock(BASE, { reqheaders: { 'x-bb-api-key': API_KEY } }).on('request', (req, interceptor, body) => {
    const headers = req.headers as unknown as Headers;
    seen.push({
      method: req.method ?? '',
      path: String(interceptor.path),
      body: body ? JSON.parse(body) : undefined,
      apiKey: headers.get('x-bb-api-key'),
    });
  });
}

/**
 * A network-level failure. nock 15 wants an Error here: with fetch, a plain object
 * (`replyWithError({ code })`) leaves the request hanging until it is aborted.
 */
export function socketError(code: 'ECONNREFUSED' | 'ECONNRESET'): Error {
  return Object.assign(new Error(`${code} (simulated)`), { code });
}

/** A reply that arrives after a second: headers and body both (nock's `.delay()` holds back only the body under fetch). */
export function slowly(status: number, body: object) {
  return async (): Promise<[number, object, Record<string, string>]> => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return [status, body, JSON_HEADERS];
  };
}

/** The ProviderError a call failed with; it must never carry the API key. */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).message).not.toContain(API_KEY);
  return error as ProviderError;
}

/** No real network; after each test every interceptor must have been used, and the record is cleared. */
export function useNockedBrowserbase(): void {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    seen.length = 0;
    expect(pending, 'every interceptor was used').toEqual([]);
  });
}

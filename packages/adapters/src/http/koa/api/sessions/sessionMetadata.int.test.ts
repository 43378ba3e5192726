import { SESSION_METADATA_MAX_BYTES } from '@browserdeck/domain';
import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionJson } from './presentSession.ts';
import { SessionSchema } from './sessionSchemas.ts';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let base: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'P' },
  });
  projectId = ((await res.json()) as { id: string }).id;
  base = `/v1/browserbase/projects/${projectId}/sessions`;
});
afterEach(() => t.close());

const call = (method: string, path: string, json?: unknown) =>
  t.request(path, { method, token: alice.accessToken, ...(json === undefined ? {} : { json }) });

async function create(json: unknown): Promise<SessionJson> {
  const res = await call('POST', base, json);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SessionJson;
}

/** What the provider was asked to start, in order. */
const created = () => t.provider.calls.flatMap((c) => (c.op === 'create' ? [c.request] : []));

type Page = { sessions: SessionJson[]; total: number; limit: number; offset: number };
async function list(query: string): Promise<Page> {
  const res = await call('GET', `${base}?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
}

const q = (text: string) => `q=${encodeURIComponent(text)}`;

/** Asserts a 400 naming `path`, with nothing started or stored. */
async function expectRefused(json: unknown, path: string) {
  const problem = await assertProblem(await call('POST', base, json), 400, 'validation_failed');
  expect(problem.errors?.map((e) => e.path)).toContain(path);
  expect(created()).toEqual([]);
  expect((await t.sessions.list(projectId, { limit: 100, offset: 0 })).total).toBe(0);
}

describe('metadata, keepAlive and viewport on POST …/sessions', () => {
  it('stores metadata, keepAlive and viewport, answers them on create, get and list, and sends keepAlive and viewport to the provider', async () => {
    const metadata = { team: 'checkout', run: { id: 'r-1', attempt: 2 }, tags: ['a'], none: null };
    const session = await create({ metadata, keepAlive: false, viewport: { width: 1024, height: 768 } });
    expect(SessionSchema.strict().parse(session)).toEqual(session);
    const viewport = { width: 1024, height: 768 };
    expect(session).toMatchObject({ metadata, keepAlive: false, viewport });
    expect(created()).toEqual([
      expect.objectContaining({ keepAlive: false, viewport: { width: 1024, height: 768 } }),
    ]);
    expect(await t.sessions.findInProject(projectId, session.id)).toMatchObject({
      metadata,
      keepAlive: false,
      viewport,
    });

    const read = (await (await call('GET', `${base}/${session.id}`)).json()) as SessionJson;
    expect(read).toMatchObject({ id: session.id, metadata, keepAlive: false, viewport });
    const page = await list('');
    expect(page.sessions).toEqual([
      expect.objectContaining({ id: session.id, metadata, keepAlive: false, viewport }),
    ]);
  });

  it('defaults to metadata {} and keepAlive true, leaving keepAlive and the viewport to the provider', async () => {
    const session = await create({});
    expect(session).toMatchObject({ metadata: {}, keepAlive: true, viewport: null });
    expect(created()).toEqual([expect.objectContaining({ keepAlive: null, viewport: null })]);
    const kept = await create({ keepAlive: true });
    expect(kept.keepAlive).toBe(true);
    expect(created()[1]).toMatchObject({ keepAlive: true });
  });

  it('accepts metadata of exactly 8 KiB of JSON', async () => {
    // {"k":"…"} is 8 bytes around the value; "é" is 2 bytes of UTF-8.
    const fits = { k: `${'é'.repeat((SESSION_METADATA_MAX_BYTES - 8) / 2)}` };
    expect(Buffer.byteLength(JSON.stringify(fits))).toBe(8192);
    expect((await create({ metadata: fits })).metadata).toEqual(fits);
  });

  it('refuses metadata one byte over 8 KiB with a 400 naming it, creating nothing', async () => {
    const over = { k: `${'é'.repeat((SESSION_METADATA_MAX_BYTES - 8) / 2)}x` };
    expect(Buffer.byteLength(JSON.stringify(over))).toBe(8193);
    await expectRefused({ metadata: over }, 'metadata');
  });

  it.each([
    ['an array', ['a']],
    ['a string', 'team=checkout'],
    ['null', null],
    ['NUL in a nested value', { a: { b: 'x\u0000' } }],
  ])('refuses metadata that is %s with a 400 naming it', async (_label, metadata) => {
    await expectRefused({ metadata }, 'metadata');
  });

  it('refuses a keepAlive that is not a boolean', async () => {
    await expectRefused({ keepAlive: 'false' }, 'keepAlive');
  });

  it('accepts viewport sides of 100 and 4096', async () => {
    await create({ viewport: { width: 100, height: 4096 } });
    await create({ viewport: { width: 4096, height: 100 } });
    expect(created().map((r) => r.viewport)).toEqual([
      { width: 100, height: 4096 },
      { width: 4096, height: 100 },
    ]);
  });

  it.each([
    ['a width of 99', { width: 99, height: 600 }, 'viewport.width'],
    ['a height of 4097', { width: 800, height: 4097 }, 'viewport.height'],
    ['a fractional width', { width: 800.5, height: 600 }, 'viewport.width'],
    ['a side as a string', { width: '800', height: 600 }, 'viewport.width'],
    ['no height', { width: 800 }, 'viewport.height'],
    ['an unknown key', { width: 800, height: 600, scale: 2 }, 'viewport.scale'],
    ['null', null, 'viewport'],
  ])('refuses a viewport with %s with a 400 naming the field', async (_label, viewport, path) => {
    await expectRefused({ viewport }, path);
  });
});

describe('GET …/sessions?q=', () => {
  let shipped: string;
  let pending: string;
  let other: string;
  beforeEach(async () => {
    shipped = (await create({ metadata: { order: { status: 'shipped' }, env: 'prod', n: 5 } })).id;
    t.clock.advance(1000);
    pending = (await create({ metadata: { order: { status: 'pending' }, env: 'prod' } })).id;
    t.clock.advance(1000);
    other = (await create({ metadata: { env: 'staging' } })).id;
  });
  const ids = async (query: string) => (await list(query)).sessions.map((s) => s.id);

  it('keeps the sessions whose metadata holds the value, at the top or along a nested path', async () => {
    expect(await ids(q("user_metadata['env']:'prod'"))).toEqual([pending, shipped]);
    expect(await ids(q(`user_metadata["order"]["status"]:"shipped"`))).toEqual([shipped]);
    expect(await ids(q("user_metadata['n']:'5'"))).toEqual([shipped]);
    expect(await ids(q("user_metadata['env']:'staging'"))).toEqual([other]);
  });

  it('answers an empty page when nothing matches', async () => {
    expect(await list(q("user_metadata['env']:'dev'"))).toEqual({
      sessions: [],
      total: 0,
      limit: 20,
      offset: 0,
    });
    expect(await ids(q("user_metadata['order']:'shipped'"))).toEqual([]);
  });

  it('combines with status and pages the matches', async () => {
    expect((await call('POST', `${base}/${pending}:release`)).status).toBe(200);
    const prod = q("user_metadata['env']:'prod'");
    expect(await ids(`${prod}&status=RUNNING`)).toEqual([shipped]);
    expect(await ids(`${prod}&status=COMPLETED`)).toEqual([pending]);
    const second = await list(`${prod}&limit=1&offset=1`);
    expect(second).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(second.sessions.map((s) => s.id)).toEqual([shipped]);
  });

  it.each([
    ['not a query', 'env=prod'],
    ['another base', "metadata['env']:'prod'"],
    ['no value', "user_metadata['env']"],
    ['an unterminated string', "user_metadata['env']:'prod"],
    ['text left over', "user_metadata['env']:'prod' OR 1"],
  ])('answers 400 naming q for %s', async (_label, text) => {
    const problem = await assertProblem(await call('GET', `${base}?${q(text)}`), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toEqual(['q']);
  });

  it('answers 400 naming q when it is given twice', async () => {
    const twice = `${q("user_metadata['env']:'prod'")}&${q("user_metadata['env']:'staging'")}`;
    const problem = await assertProblem(await call('GET', `${base}?${twice}`), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toEqual(['q']);
  });
});

describe('the Browserbase-compatible API, on the same fields', () => {
  it('shows §5’s metadata and keepAlive as userMetadata and keepAlive, and §5 filters its userMetadata', async () => {
    const keyRes = await call('POST', `/v1/projects/${projectId}/api-keys`, { name: 'sdk' });
    const key = ((await keyRes.json()) as { key: string }).key;
    const bb = (method: string, path: string, json?: unknown) =>
      t.request(path, { method, headers: { 'X-BB-API-Key': key }, ...(json === undefined ? {} : { json }) });

    const native = await create({ metadata: { run: 'native' }, keepAlive: false });
    const read = await bb('GET', `/v1/sessions/${native.id}`);
    expect(await read.json()).toMatchObject({ userMetadata: { run: 'native' }, keepAlive: false });

    const res = await bb('POST', '/v1/sessions', { userMetadata: { run: 'sdk' }, keepAlive: true });
    const sdk = (await res.json()) as { id: string };
    expect((await list(q("user_metadata['run']:'sdk'"))).sessions).toEqual([
      expect.objectContaining({ id: sdk.id, metadata: { run: 'sdk' }, keepAlive: true }),
    ]);
  });
});

import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { AGENT_METADATA_MAX_BYTES } from '../agents/agentRules.ts';
import { matchingMetadataValues, metadataMatches } from './metadataMatches.ts';
import {
  metadataFilterProblem,
  SESSION_METADATA_MAX_BYTES,
  sessionMetadataProblem,
} from './metadataRules.ts';
import type { SessionRequest } from './resolveSessionSettings.ts';

describe('session metadata at create', () => {
  it('is stored as given, and {} when the request has none', async () => {
    const { startSession, sessions, project } = await givenSessionWorld();
    const metadata = { run: { id: 'run-1', tags: ['a'] }, stagehand: 'true', n: 5, none: null };
    const tagged = await startSession({ metadata });
    expect(tagged.metadata).toEqual(metadata);
    expect((await sessions.findInProject(project.id, tagged.id))?.metadata).toEqual(metadata);
    // The session keeps its own copy.
    metadata.stagehand = 'changed';
    expect((await sessions.findInProject(project.id, tagged.id))?.metadata.stagehand).toBe('true');
    const plain = await startSession();
    expect(plain.metadata).toEqual({});
    expect((await sessions.findInProject(project.id, plain.id))?.metadata).toEqual({});
  });

  it('takes the agents’ limit: at most 8 KiB of JSON', async () => {
    expect(SESSION_METADATA_MAX_BYTES).toBe(AGENT_METADATA_MAX_BYTES);
    const { startSession } = await givenSessionWorld();
    // {"k":"…"} is 8 bytes around the value.
    const fits = { k: 'x'.repeat(SESSION_METADATA_MAX_BYTES - 8) };
    expect((await startSession({ metadata: fits })).metadata).toEqual(fits);
    await expect(
      startSession({ metadata: { k: 'x'.repeat(SESSION_METADATA_MAX_BYTES - 7) } }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [
        { path: 'metadata', message: `must be a JSON object of at most ${SESSION_METADATA_MAX_BYTES} bytes` },
      ],
    });
  });

  it.each([
    ['an array', ['a']],
    ['a string', 'text'],
    ['null', null],
    ['NUL in a value', { a: 'x\u0000' }],
    ['NUL in a key', { 'a\u0000': 'x' }],
    ['an unpaired surrogate', { a: { b: '\ud800' } }],
  ])('refuses %s with validation_failed on metadata, and stores nothing', async (_, metadata) => {
    const { startSession, sessions, project, provider } = await givenSessionWorld();
    await expect(startSession({ metadata } as unknown as SessionRequest)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'metadata' })],
    });
    expect((await sessions.list(project.id, { limit: 10, offset: 0 })).total).toBe(0);
    expect(provider.calls.filter((c) => c.op === 'create')).toEqual([]);
  });
});

describe('metadataMatches', () => {
  const metadata = {
    env: 'staging',
    order: { status: 'shipped', lines: [{ sku: 'a' }] },
    count: 5,
    ok: true,
    big: 1e21,
    nil: null,
    ['__proto__']: 'own',
  };

  it.each([
    [['env'], 'staging', true],
    [['order', 'status'], 'shipped', true],
    [['count'], '5', true],
    [['ok'], 'true', true],
    [['big'], '1e+21', true],
    [['__proto__'], 'own', true],
    [['env'], 'Staging', false],
    [['count'], '5.0', false],
    [['big'], '1e21', false],
    [['ok'], '1', false],
    [['nil'], 'null', false],
    [['order'], '[object Object]', false],
    [['order', 'lines', '0', 'sku'], 'a', false],
    [['order', 'lines', 'sku'], 'a', false],
    [['env', 'length'], '7', false],
    [['toString'], 'x', false],
    [['missing'], 'staging', false],
  ])('%j = %j → %s', (path, value, expected) => {
    expect(metadataMatches(JSON.parse(JSON.stringify(metadata)), { path, value })).toBe(expected);
  });

  it('lists the JSON values a value stands for: the string, and a number or boolean written exactly so', () => {
    expect(matchingMetadataValues('x')).toEqual(['x']);
    expect(matchingMetadataValues('5')).toEqual(['5', 5]);
    expect(matchingMetadataValues('-1.5')).toEqual(['-1.5', -1.5]);
    expect(matchingMetadataValues('false')).toEqual(['false', false]);
    for (const text of ['5.0', '05', '1e21', '-0', ' 5', 'null', '"x"', '{}', 'NaN', 'Infinity'])
      expect(matchingMetadataValues(text), text).toEqual([text]);
  });
});

describe('metadataFilterProblem', () => {
  it('accepts a path of keys and a value, and names what is wrong otherwise', () => {
    expect(metadataFilterProblem({ path: ['a', ''], value: '' })).toBeUndefined();
    expect(metadataFilterProblem({ path: [], value: 'x' })).toBe('must name at least one key');
    expect(metadataFilterProblem({ path: ['a', 1 as unknown as string], value: 'x' })).toBe(
      'keys and value must be strings',
    );
    expect(metadataFilterProblem({ path: ['a'], value: 'x\u0000' })).toBe('must not contain NUL (U+0000)');
    expect(metadataFilterProblem({ path: ['a'], value: 'x'.repeat(SESSION_METADATA_MAX_BYTES) })).toMatch(
      /at most/,
    );
  });
});

describe('sessionMetadataProblem', () => {
  it('accepts a JSON object of up to 8 KiB of UTF-8 JSON, and names what is wrong otherwise', () => {
    const tooBig = `must be a JSON object of at most ${SESSION_METADATA_MAX_BYTES} bytes`;
    // {"k":"…"} is 8 bytes around the value; "é" is 2 bytes of UTF-8.
    expect(sessionMetadataProblem({ k: 'x'.repeat(SESSION_METADATA_MAX_BYTES - 8) })).toBeUndefined();
    expect(sessionMetadataProblem({ k: 'x'.repeat(SESSION_METADATA_MAX_BYTES - 7) })).toBe(tooBig);
    expect(sessionMetadataProblem({ k: `${'é'.repeat((SESSION_METADATA_MAX_BYTES - 8) / 2)}x` })).toBe(
      tooBig,
    );
    expect(sessionMetadataProblem({})).toBeUndefined();
    for (const notAnObject of [['a'], 'text', null, 5])
      expect(sessionMetadataProblem(notAnObject)).toBe(tooBig);
    expect(sessionMetadataProblem({ a: { b: 'x\u0000' } })).toBe('must not contain NUL (U+0000) (at a.b)');
  });
});

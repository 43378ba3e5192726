import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import { MikroOrmInstanceRegistry } from './MikroOrmInstanceRegistry.ts';

const at = (sec: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, sec));

describe.each<DatabaseDialect>(['sqlite', 'postgresql'])('MikroOrmInstanceRegistry (%s)', (dialect) => {
  let test: TestOrm;
  let registry: MikroOrmInstanceRegistry;

  beforeAll(async () => {
    test = await openTestOrm(dialect);
    registry = new MikroOrmInstanceRegistry({ orm: test.orm });
  });
  afterAll(() => test?.close());

  it('registers, beats only for the current boot, lists the silent and removes a boot', async () => {
    await registry.register({
      id: 'a',
      url: 'http://127.0.0.1:1',
      bootId: 'a1',
      startedAt: at(0),
      seenAt: at(0),
    });
    await registry.register({
      id: 'b',
      url: 'http://127.0.0.1:2',
      bootId: 'b1',
      startedAt: at(0),
      seenAt: at(0),
    });
    expect(await registry.heartbeat('a', 'a1', at(10))).toBe(true);
    expect(await registry.heartbeat('b', 'b0', at(10))).toBe(false);
    expect(await registry.find('a')).toEqual({
      id: 'a',
      url: 'http://127.0.0.1:1',
      bootId: 'a1',
      startedAt: at(0),
      seenAt: at(10),
    });
    expect((await registry.listSilentSince(at(5), 10)).map((r) => r.id)).toEqual(['b']);
    // A restart takes the id over with a new boot: the old boot's removal leaves it.
    await registry.register({
      id: 'b',
      url: 'http://127.0.0.1:3',
      bootId: 'b2',
      startedAt: at(20),
      seenAt: at(20),
    });
    await registry.remove('b', 'b1');
    expect((await registry.find('b'))?.bootId).toBe('b2');
    await registry.remove('b', 'b2');
    expect(await registry.find('b')).toBeNull();
  });

  it('tells no holder for an unknown session id, and is not fooled by a malformed one', async () => {
    expect(await registry.holderOf({ sessionId: '0190c000-0000-7000-8000-000000000001' })).toBeUndefined();
    expect(await registry.holderOf({ sessionId: 'not-a-uuid' })).toBeUndefined();
    expect(await registry.holderOf({ providerSessionId: 'nope' })).toBeUndefined();
  });
});

import { ManualClock } from '@browserdeck/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import type { DatabaseDialect } from './index.ts';
import { MikroOrmBlobStore } from './MikroOrmBlobStore.ts';

const DIALECTS: DatabaseDialect[] = ['sqlite', 'postgresql'];

describe.each(DIALECTS)('MikroOrmBlobStore on %s', (dialect) => {
  let db: TestOrm;
  let clock: ManualClock;
  let blobs: MikroOrmBlobStore;
  beforeAll(async () => {
    db = await openTestOrm(dialect);
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.reset();
    clock = new ManualClock('2026-03-01T12:00:00.000Z');
    blobs = new MikroOrmBlobStore({ orm: db.orm, clock });
  });

  const text = async (key: string) => {
    const bytes = await blobs.get(key);
    return bytes ? Buffer.from(bytes).toString('utf8') : null;
  };

  it('stores, replaces and removes bytes by key', async () => {
    await blobs.put('downloads/a', Buffer.from('first'));
    await blobs.put('downloads/a', new TextEncoder().encode('second'));
    expect(await text('downloads/a')).toBe('second');
    expect(await text('downloads/b')).toBeNull();
    await blobs.delete('downloads/a');
    await blobs.delete('downloads/a');
    expect(await text('downloads/a')).toBeNull();
  });

  it('removes the blobs under a prefix written before a time, and nothing else', async () => {
    await blobs.put('downloads/old', Buffer.from('old'));
    await blobs.put('contexts/p/c/1', Buffer.from('a profile as old'));
    await blobs.put('downloadsX/old', Buffer.from('not under the prefix'));
    await blobs.put('downloa_s/old', Buffer.from('nor this'));
    clock.advance(1_000);
    await blobs.put('downloads/rewritten', Buffer.from('v1'));
    clock.advance(1_000);
    const cutoff = clock.now();
    await blobs.put('downloads/rewritten', Buffer.from('v2'));
    await blobs.put('downloads/new', Buffer.from('new'));

    expect(await blobs.deleteBefore('downloads/', cutoff)).toBe(1);
    expect(await text('downloads/old')).toBeNull();
    expect(await text('downloads/rewritten')).toBe('v2');
    expect(await text('downloads/new')).toBe('new');
    expect(await text('contexts/p/c/1')).toBe('a profile as old');
    expect(await text('downloadsX/old')).toBe('not under the prefix');
    expect(await text('downloa_s/old')).toBe('nor this');
    // A whole key is a prefix too: one blob's own retention.
    clock.advance(1_000);
    expect(await blobs.deleteBefore('downloads/new', cutoff)).toBe(0);
    expect(await blobs.deleteBefore('downloads/new', clock.now())).toBe(1);
    // A prefix is plain characters: `_` is no wildcard (as it would be to LIKE).
    expect(await blobs.deleteBefore('downloa_s/', clock.now())).toBe(1);
    expect(await text('downloads/rewritten')).toBe('v2');
  });
});

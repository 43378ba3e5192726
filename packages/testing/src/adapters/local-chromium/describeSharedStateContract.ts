import { type BlobStore, type ContextRecords, isHeld } from '@browserdeck/adapters/local-chromium';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../domain/ManualClock.ts';

/** Two projects the records may reference (real rows where the store has foreign keys). */
export const SHARED_STATE_PROJECTS = [
  '0190e000-0000-7000-8000-00000000c0a1',
  '0190e000-0000-7000-8000-00000000c0a2',
] as const;

/** How to get an empty store under test, and optionally a second handle on the same one (another instance). */
export interface ContextRecordsContractOptions {
  create: () => Promise<ContextRecords>;
  another?: (() => Promise<ContextRecords>) | undefined;
}

const at = (sec: number) => new Date(Date.parse('2026-12-02T15:00:00.000Z') + sec * 1000);
const [P1, P2] = SHARED_STATE_PROJECTS;
/** Holds until 300 s; the tests act at 10 s unless they say otherwise. */
const holderA = { sessionId: 'session-a', instanceId: 'i-a', until: at(300) };
const holderB = { sessionId: 'session-b', instanceId: 'i-b', until: at(300) };
const NOW = at(10);

/** Behaviour every `ContextRecords` must have (contexts shared by the instances on one database). */
export function describeContextRecordsContract(name: string, options: ContextRecordsContractOptions): void {
  describe(`ContextRecords contract: ${name}`, () => {
    it('creates contexts within the project’s bound, by id, and scopes them to their project', async () => {
      const records = await options.create();
      expect(await records.create({ id: 'c1', projectId: P1, createdAt: at(0) }, 2)).toBe('created');
      expect(await records.create({ id: 'c1', projectId: P1, createdAt: at(5) }, 2)).toBe('exists');
      expect(await records.create({ id: 'c2', projectId: P1, createdAt: at(1) }, 2)).toBe('created');
      expect(await records.create({ id: 'c3', projectId: P1, createdAt: at(2) }, 2)).toBe('limit_reached');
      expect(await records.create({ id: 'c3', projectId: P2, createdAt: at(2) }, 2)).toBe('created');
      // One name in two projects is two contexts.
      expect(await records.create({ id: 'c1', projectId: P2, createdAt: at(3) }, 2)).toBe('created');
      expect(await records.get(P2, 'c1')).toMatchObject({ projectId: P2, createdAt: at(3) });
      expect(await records.get(P1, 'c1')).toEqual({
        id: 'c1',
        projectId: P1,
        createdAt: at(0),
        updatedAt: at(0),
        version: null,
        size: 0,
        holder: null,
      });
      expect(await records.get(P1, 'c3')).toBeNull();
    });

    it('holds a context for one session at a time, and records its save as it lets go', async () => {
      const records = await options.create();
      await records.create({ id: 'c1', projectId: P1, createdAt: at(0) }, 10);
      expect(await records.hold(P1, 'c1', holderA, NOW)).toMatchObject({ id: 'c1', holder: holderA });
      expect(isHeld((await records.get(P1, 'c1'))!, NOW)).toBe(true);
      expect(await records.hold(P1, 'c1', holderB, NOW)).toBe('busy');
      expect(await records.hold(P1, 'nope', holderB, NOW)).toBeNull();
      expect(await records.delete(P1, 'c1', NOW)).toBe('busy');
      // Only the holder lets go.
      expect(await records.letGo(P1, 'c1', holderB, null)).toBe(false);
      const saved = { version: 'v1', size: 1234, updatedAt: at(60) };
      expect(await records.letGo(P1, 'c1', holderA, saved)).toBe(true);
      expect(await records.get(P1, 'c1')).toMatchObject({ ...saved, createdAt: at(0), holder: null });
      // A hold let go without a save keeps the last one.
      await records.hold(P1, 'c1', holderB, NOW);
      expect(await records.letGo(P1, 'c1', holderB, null)).toBe(true);
      expect(await records.get(P1, 'c1')).toMatchObject({ version: 'v1', size: 1234, holder: null });
      expect(await records.delete(P1, 'c1', NOW)).toMatchObject({ id: 'c1', version: 'v1' });
      expect(await records.delete(P1, 'c1', NOW)).toBeNull();
    });

    it('counts a lapsed hold as none: another session takes the context, and it can be deleted', async () => {
      const records = await options.create();
      await records.create({ id: 'c1', projectId: P1, createdAt: at(0) }, 10);
      await records.create({ id: 'c2', projectId: P1, createdAt: at(0) }, 10);
      await records.hold(P1, 'c1', holderA, NOW);
      await records.hold(P1, 'c2', holderA, NOW);
      const lapsed = at(300);
      expect(isHeld((await records.get(P1, 'c1'))!, lapsed)).toBe(false);
      expect(await records.hold(P1, 'c1', { ...holderB, until: at(900) }, lapsed)).toMatchObject({
        holder: { ...holderB, until: at(900) },
      });
      // The lapsed holder's late save is refused: the hold is another's now.
      expect(await records.letGo(P1, 'c1', holderA, { version: 'late', size: 1, updatedAt: lapsed })).toBe(
        false,
      );
      expect(await records.delete(P1, 'c2', lapsed)).toMatchObject({ id: 'c2' });
    });

    it('lets go of every hold of an instance, and only of its own; a save after that is refused', async () => {
      const records = await options.create();
      for (const id of ['c1', 'c2', 'c3']) await records.create({ id, projectId: P1, createdAt: at(0) }, 10);
      await records.hold(P1, 'c1', holderA, NOW);
      await records.hold(P1, 'c2', { sessionId: 'session-a2', instanceId: 'i-a', until: at(300) }, NOW);
      await records.hold(P1, 'c3', holderB, NOW);
      expect(await records.letGoOfInstance('i-a')).toBe(2);
      expect(await records.get(P1, 'c1')).toMatchObject({ holder: null });
      expect(await records.get(P1, 'c3')).toMatchObject({ holder: holderB });
      expect(await records.letGo(P1, 'c1', holderA, { version: 'late', size: 1, updatedAt: at(9) })).toBe(
        false,
      );
      expect(await records.get(P1, 'c1')).toMatchObject({ version: null });
    });

    const { another } = options;
    if (another)
      it('gives a context to exactly one of two instances taking it at once', async () => {
        const records = await options.create();
        const other = await another();
        await records.create({ id: 'c1', projectId: P1, createdAt: at(0) }, 10);
        const takes = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            (i % 2 ? other : records).hold(
              P1,
              'c1',
              { sessionId: `s${i}`, instanceId: `i${i % 2}`, until: at(300) },
              NOW,
            ),
          ),
        );
        expect(takes.filter((take) => take !== 'busy' && take !== null)).toHaveLength(1);
      });
  });
}

/** How to get an empty `BlobStore` under test that dates its writes with `clock`. */
export interface BlobStoreContractOptions {
  create: (clock: ManualClock) => Promise<BlobStore>;
}

/** Behaviour every `BlobStore` must have. */
export function describeBlobStoreContract(name: string, options: BlobStoreContractOptions): void {
  describe(`BlobStore contract: ${name}`, () => {
    const text = async (blobs: BlobStore, key: string) => {
      const bytes = await blobs.get(key);
      return bytes ? Buffer.from(bytes).toString('utf8') : null;
    };

    it('stores, replaces, reads and deletes bytes by key', async () => {
      const blobs = await options.create(new ManualClock('2026-03-01T12:00:00.000Z'));
      const bytes = new Uint8Array([0, 1, 2, 255, 0]);
      expect(await blobs.get('contexts/p/c/v1')).toBeNull();
      await blobs.put('contexts/p/c/v1', bytes);
      expect(Buffer.from((await blobs.get('contexts/p/c/v1'))!)).toEqual(Buffer.from(bytes));
      const large = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
      await blobs.put('contexts/p/c/v1', large);
      expect(Buffer.from((await blobs.get('contexts/p/c/v1'))!).equals(Buffer.from(large))).toBe(true);
      await blobs.delete('contexts/p/c/v1');
      await blobs.delete('contexts/p/c/v1');
      expect(await blobs.get('contexts/p/c/v1')).toBeNull();
    });

    it('lists the blobs under a prefix with their sizes and last writes, in key order, and nothing else', async () => {
      const clock = new ManualClock('2026-03-01T12:00:00.000Z');
      const blobs = await options.create(clock);
      await blobs.put('recordings/b/2', Buffer.from('two'));
      await blobs.put('recordings/a/1', Buffer.from('1'));
      await blobs.put('recordingsX/c', Buffer.from('not under the prefix'));
      await blobs.put('recording_/d', Buffer.from('nor this'));
      clock.advance(1_000);
      await blobs.put('recordings/b/2', Buffer.from('twelve'));
      expect(await blobs.list('recordings/')).toEqual([
        { key: 'recordings/a/1', bytes: 1, updatedAt: new Date('2026-03-01T12:00:00.000Z') },
        { key: 'recordings/b/2', bytes: 6, updatedAt: new Date('2026-03-01T12:00:01.000Z') },
      ]);
      expect(await blobs.list('nothing/')).toEqual([]);
    });

    it('removes the blobs under a prefix written before a time, and nothing else', async () => {
      const clock = new ManualClock('2026-03-01T12:00:00.000Z');
      const blobs = await options.create(clock);
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
      expect(await text(blobs, 'downloads/old')).toBeNull();
      expect(await text(blobs, 'downloads/rewritten')).toBe('v2');
      expect(await text(blobs, 'downloads/new')).toBe('new');
      expect(await text(blobs, 'contexts/p/c/1')).toBe('a profile as old');
      expect(await text(blobs, 'downloadsX/old')).toBe('not under the prefix');
      expect(await text(blobs, 'downloa_s/old')).toBe('nor this');
      // A whole key is a prefix too: one blob's own retention.
      clock.advance(1_000);
      expect(await blobs.deleteBefore('downloads/new', cutoff)).toBe(0);
      expect(await blobs.deleteBefore('downloads/new', clock.now())).toBe(1);
      // A prefix is plain characters: `_` is no wildcard (as it would be to LIKE).
      expect(await blobs.deleteBefore('downloa_s/', clock.now())).toBe(1);
      expect(await text(blobs, 'downloads/rewritten')).toBe('v2');
    });
  });
}

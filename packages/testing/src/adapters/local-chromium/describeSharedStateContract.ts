import type { BlobStore, ContextRecords } from '@browserdeck/adapters/local-chromium';
import { describe, expect, it } from 'vitest';

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
const holderA = { sessionId: 'session-a', instanceId: 'i-a' };
const holderB = { sessionId: 'session-b', instanceId: 'i-b' };

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
      expect(await records.get(P1, 'c1')).toEqual({
        id: 'c1',
        projectId: P1,
        createdAt: at(0),
        updatedAt: at(0),
        version: null,
        size: 0,
        holder: null,
      });
      expect(await records.get(P2, 'c1')).toBeNull();
      expect(await records.get(P1, 'c3')).toBeNull();
    });

    it('holds a context for one session at a time, and records its save as it lets go', async () => {
      const records = await options.create();
      await records.create({ id: 'c1', projectId: P1, createdAt: at(0) }, 10);
      expect(await records.hold(P1, 'c1', holderA)).toMatchObject({ id: 'c1', holder: holderA });
      expect(await records.hold(P1, 'c1', holderB)).toBe('busy');
      expect(await records.hold(P1, 'nope', holderB)).toBeNull();
      expect(await records.delete(P1, 'c1')).toBe('busy');
      // Only the holder lets go.
      expect(await records.letGo(P1, 'c1', holderB, null)).toBe(false);
      const saved = { version: 'v1', size: 1234, updatedAt: at(60) };
      expect(await records.letGo(P1, 'c1', holderA, saved)).toBe(true);
      expect(await records.get(P1, 'c1')).toMatchObject({ ...saved, createdAt: at(0), holder: null });
      // A hold let go without a save keeps the last one.
      await records.hold(P1, 'c1', holderB);
      expect(await records.letGo(P1, 'c1', holderB, null)).toBe(true);
      expect(await records.get(P1, 'c1')).toMatchObject({ version: 'v1', size: 1234, holder: null });
      expect(await records.delete(P1, 'c1')).toMatchObject({ id: 'c1', version: 'v1' });
      expect(await records.delete(P1, 'c1')).toBeNull();
    });

    it('lets go of every hold of an instance, and only of its own; a save after that is refused', async () => {
      const records = await options.create();
      for (const id of ['c1', 'c2', 'c3']) await records.create({ id, projectId: P1, createdAt: at(0) }, 10);
      await records.hold(P1, 'c1', holderA);
      await records.hold(P1, 'c2', { sessionId: 'session-a2', instanceId: 'i-a' });
      await records.hold(P1, 'c3', holderB);
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
            (i % 2 ? other : records).hold(P1, 'c1', { sessionId: `s${i}`, instanceId: `i${i % 2}` }),
          ),
        );
        expect(takes.filter((take) => take !== 'busy' && take !== null)).toHaveLength(1);
      });
  });
}

/** Behaviour every `BlobStore` must have. */
export function describeBlobStoreContract(name: string, options: { create: () => Promise<BlobStore> }): void {
  describe(`BlobStore contract: ${name}`, () => {
    it('stores, replaces, reads and deletes bytes by key', async () => {
      const blobs = await options.create();
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
  });
}

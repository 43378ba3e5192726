import type { BrowserContextStore } from '@browserdeck/domain';
import { ConflictError } from '@browserdeck/domain';
import { afterEach, describe, expect, it } from 'vitest';

/** A fresh, empty context store, and a way to mark a context as written by a running session. */
export interface BrowserContextStoreFixture {
  contexts: BrowserContextStore;
  /** Makes the context in use, as a running session that saves to it would; resolves to its release. */
  occupy(projectId: string, contextId: string): Promise<() => Promise<void>>;
  /** Frees what the fixture holds (fakes, folders), after each test. */
  dispose?: () => Promise<void>;
}

const P1 = '0190e000-0000-7000-8000-0000000000c1';
const P2 = '0190e000-0000-7000-8000-0000000000c2';

/**
 * Behaviour every `BrowserContextStore` must have: new contexts with distinct ids, reads and deletes
 * scoped by project (another project's context is unknown), delete refused with `context_in_use`
 * while a session writes to the context. `create` gives a fresh, empty store.
 */
export function describeBrowserContextStoreContract(
  name: string,
  options: { create: () => Promise<BrowserContextStoreFixture> },
): void {
  describe(`BrowserContextStore contract: ${name}`, () => {
    let current: BrowserContextStoreFixture | null = null;
    afterEach(async () => {
      await current?.dispose?.();
      current = null;
    });
    const given = async (): Promise<BrowserContextStoreFixture> => {
      current = await options.create();
      return current;
    };

    it('creates contexts with distinct ids, read back as created (times within a clock’s skew)', async () => {
      const { contexts } = await given();
      const a = await contexts.create(P1);
      const b = await contexts.create(P1);
      expect(a.id).not.toBe(b.id);
      expect(a).toEqual({
        id: expect.any(String),
        projectId: P1,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(a.updatedAt.getTime()).toBeGreaterThanOrEqual(a.createdAt.getTime());
      // A provider that answers a create without times (Browserbase) gives our clock's: within a minute.
      const read = await contexts.get(P1, a.id);
      expect(read).toMatchObject({ id: a.id, projectId: P1 });
      expect(Math.abs(read!.createdAt.getTime() - a.createdAt.getTime())).toBeLessThan(60_000);
      expect(read!.updatedAt.getTime()).toBeGreaterThanOrEqual(read!.createdAt.getTime());
    });

    it('knows no context of another project, and no unknown or malformed id', async () => {
      const { contexts } = await given();
      const a = await contexts.create(P1);
      expect(await contexts.get(P2, a.id)).toBeNull();
      expect(await contexts.delete(P2, a.id)).toBe(false);
      expect(await contexts.get(P1, a.id)).not.toBeNull();
      for (const id of ['0190e000-0000-7000-8000-00000000dead', '../x', '', 'a/b']) {
        expect(await contexts.get(P1, id)).toBeNull();
        expect(await contexts.delete(P1, id)).toBe(false);
      }
    });

    it('deletes a context once', async () => {
      const { contexts } = await given();
      const a = await contexts.create(P1);
      expect(await contexts.delete(P1, a.id)).toBe(true);
      expect(await contexts.get(P1, a.id)).toBeNull();
      expect(await contexts.delete(P1, a.id)).toBe(false);
    });

    it('refuses to delete a context in use (context_in_use), and deletes it once free', async () => {
      const fixture = await given();
      const { contexts } = fixture;
      const a = await contexts.create(P1);
      const release = await fixture.occupy(P1, a.id);
      const error = await contexts.delete(P1, a.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code: 'context_in_use' });
      expect(await contexts.get(P1, a.id)).not.toBeNull();
      await release();
      expect(await contexts.delete(P1, a.id)).toBe(true);
    });
  });
}

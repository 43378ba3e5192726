import { Extension, type ExtensionRepository } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh, empty extension store, and a way to create the project rows its extensions belong to. */
export interface ExtensionRepositoryFixture {
  extensions: ExtensionRepository;
  /** Makes `projectId` exist, owned by `ownerId` (database stores need the rows for their foreign keys). */
  givenProject(projectId: string, ownerId: string): Promise<void>;
}

const OWNER = '0190e000-0000-7000-8000-0000000000f1';
const P1 = '0190e000-0000-7000-8000-0000000000a1';
const P2 = '0190e000-0000-7000-8000-0000000000a2';

/**
 * Behaviour every `ExtensionRepository` must have (http-api.md §5, §13): records and zips round-trip
 * byte for byte, reads, counts and deletes are scoped to the project, listing is newest first without
 * the zips, the provider's id is stored later, and an id that is no id of ours is simply not found.
 */
export function describeExtensionRepositoryContract(
  name: string,
  options: { create: () => Promise<ExtensionRepositoryFixture> },
): void {
  describe(`ExtensionRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-04-01T08:00:00.123Z');

    function extension(props: { projectId?: string; minute?: number; providerExtensionId?: string } = {}) {
      seq++;
      return Extension.create({
        id: `0190e000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId: props.projectId ?? P1,
        name: `Stagehand Runtime ${seq} — ✓`,
        fileName: `ext ${seq}.zip`,
        size: 600_000 + seq,
        providerExtensionId: props.providerExtensionId ?? null,
        now: new Date(base + (props.minute ?? seq) * 60_000),
      });
    }

    /** Bytes of every value, with NUL and high bytes (blob and bytea columns must keep them all). */
    function archive(size: number): Uint8Array {
      return Uint8Array.from({ length: size }, (_, i) => (i * 131 + 7) % 256);
    }

    async function given(): Promise<ExtensionRepository> {
      const fixture = await options.create();
      await fixture.givenProject(P1, OWNER);
      await fixture.givenProject(P2, OWNER);
      return fixture.extensions;
    }

    it('keeps every field and the zip byte for byte, read in its own project only', async () => {
      const extensions = await given();
      const ext = extension({ providerExtensionId: 'bb-ext-1' });
      const zip = archive(600_123);
      await extensions.add(ext, zip);
      const found = await extensions.findInProject(P1, ext.id);
      expect(found).toBeInstanceOf(Extension);
      expect({ ...found }).toEqual({ ...ext });
      const read = await extensions.readArchive(P1, ext.id);
      expect(read?.byteLength).toBe(zip.byteLength);
      expect(read?.every((byte, i) => byte === zip[i])).toBe(true);
      expect(await extensions.findInProject(P2, ext.id)).toBeNull();
      expect(await extensions.readArchive(P2, ext.id)).toBeNull();
    });

    it('finds nothing for an unknown id, or one that is no id of ours', async () => {
      const extensions = await given();
      expect(await extensions.findInProject(P1, '0190e000-0000-7000-8000-00000000ffff')).toBeNull();
      expect(await extensions.findInProject(P1, 'not-a-uuid')).toBeNull();
      expect(await extensions.readArchive(P1, 'not-a-uuid')).toBeNull();
      expect(await extensions.delete(P1, 'not-a-uuid')).toBe(false);
    });

    it('lists a project’s extensions newest first, and only its own', async () => {
      const extensions = await given();
      const older = extension({ minute: 1 });
      const newer = extension({ minute: 2 });
      const elsewhere = extension({ projectId: P2, minute: 3 });
      for (const e of [older, newer, elsewhere]) await extensions.add(e, archive(10));
      const listed = await extensions.listInProject(P1);
      expect(listed.map((e) => e.id)).toEqual([newer.id, older.id]);
      expect(listed[0]).toBeInstanceOf(Extension);
      expect({ ...listed[0] }).toEqual({ ...newer });
    });

    it('counts a project’s extensions, and only its own', async () => {
      const extensions = await given();
      expect(await extensions.countInProject(P1)).toBe(0);
      for (const e of [extension(), extension(), extension({ projectId: P2 })])
        await extensions.add(e, archive(10));
      expect(await extensions.countInProject(P1)).toBe(2);
      expect(await extensions.countInProject(P2)).toBe(1);
      expect(await extensions.countInProject('0190e000-0000-7000-8000-00000000ffff')).toBe(0);
      expect(await extensions.countInProject('not-a-uuid')).toBe(0);
      const [newest] = await extensions.listInProject(P1);
      await extensions.delete(P1, newest!.id);
      expect(await extensions.countInProject(P1)).toBe(1);
    });

    it('stores the provider’s id given later', async () => {
      const extensions = await given();
      const ext = extension();
      await extensions.add(ext, archive(10));
      ext.storedAtProvider('bb-ext-later');
      await extensions.saveProviderExtensionId(ext);
      expect((await extensions.findInProject(P1, ext.id))?.providerExtensionId).toBe('bb-ext-later');
    });

    it('deletes in its own project only, with its zip', async () => {
      const extensions = await given();
      const ext = extension();
      await extensions.add(ext, archive(10));
      expect(await extensions.delete(P2, ext.id)).toBe(false);
      expect(await extensions.findInProject(P1, ext.id)).not.toBeNull();
      expect(await extensions.delete(P1, ext.id)).toBe(true);
      expect(await extensions.findInProject(P1, ext.id)).toBeNull();
      expect(await extensions.readArchive(P1, ext.id)).toBeNull();
      expect(await extensions.delete(P1, ext.id)).toBe(false);
    });
  });
}

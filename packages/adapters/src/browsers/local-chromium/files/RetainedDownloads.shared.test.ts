import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@browserdeck/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { InMemoryBlobStore } from '../../shared-state/InMemoryBlobStore.ts';
import { RetainedDownloads } from './RetainedDownloads.ts';

const A = '0190b000-0000-7000-8000-00000000000a';
const B = '0190b000-0000-7000-8000-00000000000b';
const ALICE = '0190b000-0000-7000-8000-0000000a11ce';

let dirs: string[];
let clock: ManualClock;
let blobs: InMemoryBlobStore;
beforeEach(() => {
  dirs = [];
  clock = new ManualClock('2026-03-01T12:00:00.000Z');
  blobs = new InMemoryBlobStore({ clock });
});
afterEach(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A browser's Downloads folder holding `files` (name → text). */
async function downloadsWith(files: Record<string, string>): Promise<string> {
  const dir = join(await tempDir('shared-profile-'), 'Downloads');
  await mkdir(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** One instance's kept downloads: a data folder of its own, the shared store. */
async function instance(
  options: { retentionSec?: number; maxBytes?: number; maxBytesPerOwner?: number } = {},
) {
  return new RetainedDownloads({ dataDir: await tempDir('shared-data-'), clock, blobs, ...options });
}

/** The files of a zip read to its end, name → text; null for none. */
async function files(archive: AsyncIterable<Uint8Array> | null): Promise<Record<string, string> | null> {
  if (!archive) return null;
  const chunks: Uint8Array[] = [];
  for await (const chunk of archive) chunks.push(chunk);
  const zip = Buffer.concat(chunks);
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const out: Record<string, string> = {};
      file.on('end', () => resolve(out));
      file.on('entry', (entry: yauzl.Entry) =>
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            out[entry.fileName] = Buffer.concat(parts).toString('utf8');
            file.readEntry();
          });
        }),
      );
      file.readEntry();
    });
  });
}

describe('RetainedDownloads with a shared blob store', () => {
  it('shares what it keeps, and another instance without the folder serves it from the store', async () => {
    const holder = await instance({ retentionSec: 60 });
    const other = await instance({ retentionSec: 60 });
    expect(await other.archive(A)).toBeNull();
    await holder.hold(A, ALICE)(await downloadsWith({ 'one.txt': 'one', 'part.crdownload': 'partial' }));
    expect(blobs.keys()).toEqual([`downloads/${A}`]);
    expect(await files(await other.archive(A))).toEqual({ 'one.txt': 'one' });
    // The holder still serves its own folder; nothing of an unknown session.
    expect(await files(await holder.archive(A))).toEqual({ 'one.txt': 'one' });
    expect(await other.archive(B)).toBeNull();
  });

  it('serves a shared zip only within the retention, and a sweep on any instance removes it past it', async () => {
    const holder = await instance({ retentionSec: 60 });
    const other = await instance({ retentionSec: 60 });
    await holder.hold(A, ALICE)(await downloadsWith({ 'a.txt': 'a' }));
    clock.advance(10_000);
    await holder.hold(B, ALICE)(await downloadsWith({ 'b.txt': 'b' }));
    clock.advance(49_000);
    expect(await files(await other.archive(A))).toEqual({ 'a.txt': 'a' });
    clock.advance(1_000);
    // Past its time: not served, even before a sweep; B's, younger, still is.
    expect(await other.archive(A)).toBeNull();
    expect(await files(await other.archive(B))).toEqual({ 'b.txt': 'b' });
    clock.advance(10_000);
    expect(blobs.keys().includes(`downloads/${B}`)).toBe(true);
    // The holder may be gone: the other instance's sweep removes what is past its time.
    await other.sweep();
    expect(blobs.keys()).toEqual([]);
  });

  it('removes a session’s blob with its folder when the budget evicts it, and shares nothing past the account’s share', async () => {
    const holder = await instance({ maxBytes: 10, maxBytesPerOwner: 10 });
    const other = await instance();
    await holder.hold(A, ALICE)(await downloadsWith({ 'a.txt': '123456' }));
    clock.advance(1_000);
    expect(blobs.keys().includes(`downloads/${A}`)).toBe(true);
    // B's 6 bytes put Alice past 10: her oldest, A, goes, and its blob with it.
    await holder.hold(B, ALICE)(await downloadsWith({ 'b.txt': '654321' }));
    expect(blobs.keys()).toEqual([`downloads/${B}`]);
    expect(await other.archive(A)).toBeNull();
    expect(await files(await other.archive(B))).toEqual({ 'b.txt': '654321' });
    // A session past the share on its own is not kept, nor shared even for a moment.
    const C = '0190b000-0000-7000-8000-00000000000c';
    const puts: string[] = [];
    const put = blobs.put.bind(blobs);
    blobs.put = async (key, content) => {
      puts.push(key);
      await put(key, content);
    };
    await holder.hold(C, ALICE)(await downloadsWith({ 'c.bin': 'x'.repeat(11) }));
    expect(puts).toEqual([]);
    expect(await other.archive(C)).toBeNull();
  });

  it('keeps the folder and serves its own instance when the store refuses the write', async () => {
    const warnings: string[] = [];
    const holder = new RetainedDownloads({
      dataDir: await tempDir('shared-data-'),
      clock,
      blobs: {
        put: () => Promise.reject(new Error('database down')),
        get: (key) => blobs.get(key),
        delete: (key) => blobs.delete(key),
        deleteBefore: (prefix, before) => blobs.deleteBefore(prefix, before),
        list: (prefix) => blobs.list(prefix),
      },
      logger: { warn: (_details, message) => warnings.push(message), error() {} },
    });
    await holder.hold(A, ALICE)(await downloadsWith({ 'a.txt': 'a' }));
    expect(await files(await holder.archive(A))).toEqual({ 'a.txt': 'a' });
    expect(warnings).toEqual([expect.stringMatching(/could not share/)]);
  });
});

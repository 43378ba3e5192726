import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@browserdeck/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RetainedDownloads } from './RetainedDownloads.ts';

const A = '0190b000-0000-7000-8000-00000000000a';
const B = '0190b000-0000-7000-8000-00000000000b';
const C = '0190b000-0000-7000-8000-00000000000c';

let dataDir: string;
let browserDir: string;
let clock: ManualClock;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'retained-data-'));
  // /dev/shm is another file system (tmpfs), as a size-limited profile is: the files are copied.
  browserDir = await mkdtemp(join('/dev/shm', 'retained-profile-'));
  clock = new ManualClock('2026-03-01T12:00:00.000Z');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dataDir, { recursive: true, force: true });
  await rm(browserDir, { recursive: true, force: true });
});

/** A Downloads folder with `files` (name → text) in `parent`. */
async function downloadsWith(files: Record<string, string>, parent = browserDir, name = 'Downloads') {
  const dir = join(parent, name);
  await mkdir(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

async function names(archive: AsyncIterable<Uint8Array> | null): Promise<number | null> {
  if (!archive) return null;
  let bytes = 0;
  for await (const chunk of archive) bytes += chunk.length;
  return bytes;
}

describe('RetainedDownloads', () => {
  it('copies an ended session’s completed downloads across file systems, and serves them until the retention ends', async () => {
    const retained = new RetainedDownloads({ dataDir, retentionSec: 60, clock });
    const downloads = await downloadsWith({
      'one.txt': 'one',
      'two.csv': 'a,b',
      'big.iso.crdownload': 'partial',
    });
    await symlink('/etc/passwd', join(downloads, 'passwd'));
    const keep = retained.hold(A);
    // A read while the files are on their way waits for them.
    const reading = retained.archive(A);
    await keep(downloads);
    expect(await names(await reading)).toBeGreaterThan(22);
    expect((await readdir(join(dataDir, 'downloads', A))).sort()).toEqual(['one.txt', 'two.csv']);
    clock.advance(59_000);
    expect(await retained.archive(A)).not.toBeNull();
    clock.advance(1_000);
    expect(await retained.archive(A)).toBeNull();
    await retained.sweep();
    expect(await readdir(join(dataDir, 'downloads'))).toEqual([]);
  });

  it('moves a folder on the same file system, and keeps an empty one for a session without downloads', async () => {
    const retained = new RetainedDownloads({ dataDir, clock });
    const profile = await mkdtemp(join(dataDir, 'profile-'));
    const downloads = await downloadsWith({ 'a.txt': 'a' }, profile);
    await retained.hold(A)(downloads);
    expect(await readdir(profile)).toEqual([]);
    expect(await readdir(join(dataDir, 'downloads', A))).toEqual(['a.txt']);
    await retained.hold(B)(join(profile, 'Downloads'));
    expect(await names(await retained.archive(B))).toBe(22);
    // Nothing handed over (the browser was disposed elsewhere): nothing kept, and the wait ends.
    await retained.hold(C)(null);
    expect(await retained.archive(C)).toBeNull();
  });

  it('keeps nothing through a link the browser left where its Downloads folder was', async () => {
    const retained = new RetainedDownloads({ dataDir, clock });
    const profile = await mkdtemp(join(dataDir, 'profile-'));
    const secrets = await downloadsWith({ id_rsa: 'secret' }, dataDir, 'secrets');
    await symlink(secrets, join(profile, 'Downloads'));
    await retained.hold(A)(join(profile, 'Downloads'));
    expect(await readdir(join(dataDir, 'downloads', A))).toEqual([]);
    expect(await names(await retained.archive(A))).toBe(22);
  });

  it('keeps the kept downloads within maxBytes, the oldest sessions’ going first', async () => {
    const retained = new RetainedDownloads({ dataDir, maxBytes: 10, clock });
    await retained.hold(A)(await downloadsWith({ 'a.bin': '1234' }, browserDir, 'a'));
    clock.advance(1000);
    await retained.hold(B)(await downloadsWith({ 'b.bin': '12345' }, browserDir, 'b'));
    clock.advance(1000);
    await retained.hold(C)(
      await downloadsWith({ 'c.bin': '1234', 'd.bin': '1234567890123' }, browserDir, 'c'),
    );
    // C's second file is past the budget on its own: left out when copied; A goes to make room for C.
    expect((await readdir(join(dataDir, 'downloads'))).sort()).toEqual([B, C]);
    expect(await readdir(join(dataDir, 'downloads', C))).toEqual(['c.bin']);
  });

  it('prunes a moved folder to its completed downloads, so what is kept is what the budget counts', async () => {
    const retained = new RetainedDownloads({ dataDir, maxBytes: 10, clock });
    const profile = await mkdtemp(join(dataDir, 'profile-'));
    const downloads = await downloadsWith(
      { 'a.txt': '1234', 'big.iso.crdownload': 'x'.repeat(1000) },
      profile,
    );
    // What the browser's user could leave there besides its downloads, all past the budget.
    await downloadsWith({ 'hidden.bin': 'x'.repeat(1000) }, downloads, 'sub');
    await symlink(join(downloads, 'sub'), join(downloads, 'link'));
    await symlink('/etc/passwd', join(downloads, 'passwd'));
    execFileSync('mkfifo', [join(downloads, 'fifo')]);
    await writeFile(join(downloads, 'a\\..\\..\\x'), 'x'.repeat(1000));
    await writeFile(Buffer.from(`${downloads}/bad-\xff`, 'latin1'), 'x'.repeat(1000));
    await retained.hold(A)(downloads);
    expect(await readdir(join(dataDir, 'downloads', A), { encoding: 'buffer' })).toEqual([
      Buffer.from('a.txt'),
    ]);
    expect(await readdir(join(dataDir, 'downloads'))).toEqual([A]);
    // The next session's 7 bytes do not fit with A's 4: A goes, as its counted size says.
    await retained.hold(B)(await downloadsWith({ 'b.txt': '1234567' }, profile, 'b'));
    expect(await readdir(join(dataDir, 'downloads'))).toEqual([B]);
  });

  it('keeps nothing with a retention or a budget of 0: no timer, and what is there goes at start and at the end', async () => {
    const interval = vi.spyOn(globalThis, 'setInterval');
    for (const [options, left] of [
      [{ retentionSec: 0 }, A],
      [{ maxBytes: 0 }, B],
    ] as const) {
      // One kept by an earlier run (with other settings), just now and empty: past nothing but the setting.
      const root = join(dataDir, 'downloads');
      await downloadsWith({}, root, left);
      const now = clock.now();
      await utimes(join(root, left), now, now);
      const retained = new RetainedDownloads({ dataDir, clock, ...options });
      retained.start();
      await retained.sweep();
      expect(await readdir(root)).toEqual([]);
      // Another left while the session ran (an instance with other settings on the same folder).
      await downloadsWith({ 'y.txt': 'y' }, root, C);
      await retained.hold(left)(await downloadsWith({ 'a.txt': 'a' }, browserDir, left));
      expect(await readdir(root)).toEqual([]);
      expect(await retained.archive(left)).toBeNull();
      await retained.stop();
    }
    expect(interval).not.toHaveBeenCalled();
  });

  it('sweeps what an earlier run of the service left, by the time each folder was kept', async () => {
    const root = join(dataDir, 'downloads');
    await downloadsWith({ 'x.txt': 'x' }, root, A);
    await downloadsWith({ 'y.txt': 'y' }, root, B);
    await downloadsWith({}, root, 'not-a-session');
    const hourAgo = new Date(clock.now().getTime() - 3_600_000);
    await utimes(join(root, A), hourAgo, hourAgo);
    const now = clock.now();
    await utimes(join(root, B), now, now);
    const retained = new RetainedDownloads({ dataDir, retentionSec: 3600, clock });
    retained.start();
    await retained.stop();
    await retained.sweep();
    expect((await readdir(root)).sort()).toEqual([B, 'not-a-session']);
    expect(await retained.archive(B)).not.toBeNull();
    expect(await retained.archive('../../etc')).toBeNull();
  });
});

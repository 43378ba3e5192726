import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@browserdeck/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RetainedDownloads } from './RetainedDownloads.ts';

const A = '0190b000-0000-7000-8000-00000000000a';
const B = '0190b000-0000-7000-8000-00000000000b';
const C = '0190b000-0000-7000-8000-00000000000c';
const D = '0190b000-0000-7000-8000-00000000000d';
const ALICE = '0190b000-0000-7000-8000-0000000a11ce';
const BOB = '0190b000-0000-7000-8000-000000000b0b';

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

/** The sessions whose downloads are kept (their folders), by name. */
async function keptFolders(): Promise<string[]> {
  const names = await readdir(join(dataDir, 'downloads')).catch(() => [] as string[]);
  return names.filter((name) => name !== '.owners').sort();
}

/** The sessions whose owner is recorded, by name. */
async function ownerRecords(): Promise<string[]> {
  return (await readdir(join(dataDir, 'downloads', '.owners')).catch(() => [] as string[])).sort();
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
    const keep = retained.hold(A, ALICE);
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
    expect(await keptFolders()).toEqual([]);
    expect(await ownerRecords()).toEqual([]);
  });

  it('moves a folder on the same file system, and keeps an empty one for a session without downloads', async () => {
    const retained = new RetainedDownloads({ dataDir, clock });
    const profile = await mkdtemp(join(dataDir, 'profile-'));
    const downloads = await downloadsWith({ 'a.txt': 'a' }, profile);
    await retained.hold(A, ALICE)(downloads);
    expect(await readdir(profile)).toEqual([]);
    expect(await readdir(join(dataDir, 'downloads', A))).toEqual(['a.txt']);
    await retained.hold(B, ALICE)(join(profile, 'Downloads'));
    expect(await names(await retained.archive(B))).toBe(22);
    // Nothing handed over (the browser was disposed elsewhere): nothing kept, and the wait ends.
    await retained.hold(C, ALICE)(null);
    expect(await retained.archive(C)).toBeNull();
  });

  it('keeps nothing through a link the browser left where its Downloads folder was', async () => {
    const retained = new RetainedDownloads({ dataDir, clock });
    const profile = await mkdtemp(join(dataDir, 'profile-'));
    const secrets = await downloadsWith({ id_rsa: 'secret' }, dataDir, 'secrets');
    await symlink(secrets, join(profile, 'Downloads'));
    await retained.hold(A, ALICE)(join(profile, 'Downloads'));
    expect(await readdir(join(dataDir, 'downloads', A))).toEqual([]);
    expect(await names(await retained.archive(A))).toBe(22);
  });

  it('keeps the kept downloads within maxBytes, the oldest sessions’ going first', async () => {
    // One account, whose share is the whole budget: the ceiling is what counts here.
    const retained = new RetainedDownloads({ dataDir, maxBytes: 10, maxBytesPerOwner: 10, clock });
    await retained.hold(A, ALICE)(await downloadsWith({ 'a.bin': '1234' }, browserDir, 'a'));
    clock.advance(1000);
    await retained.hold(B, ALICE)(await downloadsWith({ 'b.bin': '12345' }, browserDir, 'b'));
    clock.advance(1000);
    await retained.hold(
      C,
      ALICE,
    )(await downloadsWith({ 'c.bin': '1234', 'd.bin': '1234567890123' }, browserDir, 'c'));
    // C's second file is past the budget on its own: left out when copied; A goes to make room for C.
    expect(await keptFolders()).toEqual([B, C]);
    expect(await ownerRecords()).toEqual([B, C]);
    expect(await readdir(join(dataDir, 'downloads', C))).toEqual(['c.bin']);
  });

  it('prunes a moved folder to its completed downloads, so what is kept is what the budget counts', async () => {
    // One account, whose share is the whole budget: the ceiling is what counts here.
    const retained = new RetainedDownloads({ dataDir, maxBytes: 10, maxBytesPerOwner: 10, clock });
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
    await retained.hold(A, ALICE)(downloads);
    expect(await readdir(join(dataDir, 'downloads', A), { encoding: 'buffer' })).toEqual([
      Buffer.from('a.txt'),
    ]);
    expect(await keptFolders()).toEqual([A]);
    // The next session's 7 bytes do not fit with A's 4: A goes, as its counted size says.
    await retained.hold(B, ALICE)(await downloadsWith({ 'b.txt': '1234567' }, profile, 'b'));
    expect(await keptFolders()).toEqual([B]);
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
      expect(await keptFolders()).toEqual([]);
      // Another left while the session ran (an instance with other settings on the same folder).
      await downloadsWith({ 'y.txt': 'y' }, root, C);
      await retained.hold(left, ALICE)(await downloadsWith({ 'a.txt': 'a' }, browserDir, left));
      expect(await keptFolders()).toEqual([]);
      expect(await retained.archive(left)).toBeNull();
      await retained.stop();
    }
    expect(interval).not.toHaveBeenCalled();
  });

  it('keeps each account within its own share: an account past it loses its own oldest, never another’s', async () => {
    const retained = new RetainedDownloads({ dataDir, maxBytes: 100, maxBytesPerOwner: 10, clock });
    await retained.hold(A, BOB)(await downloadsWith({ 'a.bin': '123456' }, browserDir, 'a'));
    clock.advance(1000);
    await retained.hold(B, ALICE)(await downloadsWith({ 'b.bin': '1234567' }, browserDir, 'b'));
    clock.advance(1000);
    await retained.hold(C, ALICE)(await downloadsWith({ 'c.bin': '1234567' }, browserDir, 'c'));
    // Alice's 14 bytes are past her 10: her oldest (B) goes; Bob's older A stays.
    expect(await keptFolders()).toEqual([A, C]);
    clock.advance(1000);
    // Copied across file systems: only what fits Alice's share is copied at all.
    await retained.hold(
      D,
      ALICE,
    )(await downloadsWith({ 'd.bin': '12345678', 'e.bin': '12345678901' }, browserDir, 'd'));
    expect(await keptFolders()).toEqual([A, D]);
    expect(await readdir(join(dataDir, 'downloads', D))).toEqual(['d.bin']);
    expect(await names(await retained.archive(A))).not.toBeNull();
  });

  it('keeps all within the ceiling by taking from the account holding the most, not the oldest of all', async () => {
    // Each account's share is the whole budget: only the ceiling binds.
    const retained = new RetainedDownloads({ dataDir, maxBytes: 20, maxBytesPerOwner: 20, clock });
    await retained.hold(A, BOB)(await downloadsWith({ 'a.bin': '12345' }, browserDir, 'a'));
    clock.advance(1000);
    await retained.hold(B, ALICE)(await downloadsWith({ 'b.bin': '123456789' }, browserDir, 'b'));
    clock.advance(1000);
    await retained.hold(C, ALICE)(await downloadsWith({ 'c.bin': '123456789' }, browserDir, 'c'));
    // 23 bytes past the 20: Bob's 5 (the oldest, but within a fair share of 10) stay; Alice's oldest goes.
    expect(await keptFolders()).toEqual([A, C]);
    clock.advance(1000);
    // Bob past Alice now: his own oldest goes first.
    await retained.hold(D, BOB)(await downloadsWith({ 'd.bin': '1234567890' }, browserDir, 'd'));
    expect(await keptFolders()).toEqual([C, D]);
    expect(await ownerRecords()).toEqual([C, D]);
  });

  it('records whose each folder is beside it, where the browser cannot write, and counts a folder without one apart', async () => {
    const retained = new RetainedDownloads({ dataDir, maxBytes: 100, maxBytesPerOwner: 10, clock });
    // A Downloads folder that claims to be Bob's: it is its own session's account's all the same.
    await retained.hold(
      A,
      ALICE,
    )(await downloadsWith({ '.owners': BOB, 'a.bin': '1234567' }, browserDir, 'a'));
    const record = join(dataDir, 'downloads', '.owners', A);
    expect(await readFile(record, 'utf8')).toBe(ALICE);
    expect((await stat(record)).mode & 0o777).toBe(0o600);
    // One an earlier version kept, without an owner: an account of its own, not Alice's.
    const root = join(dataDir, 'downloads');
    await downloadsWith({ 'old.bin': '1234567' }, root, B);
    const now = clock.now();
    await utimes(join(root, B), now, now);
    clock.advance(1000);
    await retained.hold(C, BOB)(await downloadsWith({ 'c.bin': '1234567' }, browserDir, 'c'));
    expect(await keptFolders()).toEqual([A, B, C]);
    // A record left without its folder is forgotten once it is no longer recent.
    await writeFile(join(root, '.owners', D), BOB);
    await utimes(join(root, '.owners', D), now, now);
    await retained.sweep();
    expect(await ownerRecords()).toEqual([A, C, D]);
    clock.advance(11 * 60_000);
    await retained.sweep();
    expect(await ownerRecords()).toEqual([A, C]);
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

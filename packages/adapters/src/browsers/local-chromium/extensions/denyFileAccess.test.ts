import { execFileSync } from 'node:child_process';
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { denyFileAccess } from './denyFileAccess.ts';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
/** A user that is not the test's: chown to it only works as root, which is when it matters. */
const owner = process.getuid?.() === 0 ? { uid: 4242, gid: 4242 } : null;

describe('denyFileAccess', () => {
  let root: string;
  let profile: string;
  let outside: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'browserdeck-deny-file-access-'));
    profile = join(root, 'profile');
    outside = join(root, 'host');
    await mkdir(profile);
    await mkdir(outside);
    await writeFile(join(outside, 'secret.json'), '{"host":"secret"}', { mode: 0o640 });
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  const preferences = async () => JSON.parse(await readFile(join(profile, 'Default', 'Preferences'), 'utf8'));
  const hostFileUntouched = async () => {
    expect(await readFile(join(outside, 'secret.json'), 'utf8')).toBe('{"host":"secret"}');
    const stats = await stat(join(outside, 'secret.json'));
    expect([stats.uid, stats.mode & 0o777]).toEqual([process.getuid?.(), 0o640]);
  };

  it("makes the preferences when there are none, the browser's user's, 0600", async () => {
    await denyFileAccess(profile, [ID], owner);
    expect(await preferences()).toEqual({
      extensions: { settings: { [ID]: { newAllowFileAccess: false } } },
    });
    const file = await stat(join(profile, 'Default', 'Preferences'));
    expect(file.mode & 0o777).toBe(0o600);
    if (owner) {
      expect([file.uid, file.gid]).toEqual([owner.uid, owner.gid]);
      expect((await stat(join(profile, 'Default'))).uid).toBe(owner.uid);
    }
    expect(await readdir(join(profile, 'Default'))).toEqual(['Preferences']);
  });

  it('replaces a link left in place of Preferences, never writing or giving away what it points at', async () => {
    await mkdir(join(profile, 'Default'));
    await symlink(join(outside, 'secret.json'), join(profile, 'Default', 'Preferences'));
    await denyFileAccess(profile, [ID], owner);
    await hostFileUntouched();
    expect((await lstat(join(profile, 'Default', 'Preferences'))).isFile()).toBe(true);
    // Not read through the link either: the host file's content is not copied into the profile.
    expect(await preferences()).toEqual({
      extensions: { settings: { [ID]: { newAllowFileAccess: false } } },
    });
  });

  it('replaces a link left in place of Default with a folder, writing nothing where it points', async () => {
    await symlink(outside, join(profile, 'Default'));
    await denyFileAccess(profile, [ID], owner);
    expect(await readdir(outside)).toEqual(['secret.json']);
    expect((await stat(outside)).uid).toBe(process.getuid?.());
    await hostFileUntouched();
    expect((await lstat(join(profile, 'Default'))).isDirectory()).toBe(true);
    expect(await preferences()).toEqual({
      extensions: { settings: { [ID]: { newAllowFileAccess: false } } },
    });
  });

  it('does not copy a hard-linked file into the profile, nor stall on a FIFO', async () => {
    await mkdir(join(profile, 'Default'));
    await link(join(outside, 'secret.json'), join(profile, 'Default', 'Preferences'));
    await denyFileAccess(profile, [ID], owner);
    await hostFileUntouched();
    expect((await preferences()).host).toBeUndefined();

    await rm(join(profile, 'Default', 'Preferences'));
    execFileSync('mkfifo', [join(profile, 'Default', 'Preferences')]);
    await denyFileAccess(profile, [ID], owner);
    expect(await preferences()).toEqual({
      extensions: { settings: { [ID]: { newAllowFileAccess: false } } },
    });
  });

  it("keeps a context's own preferences", async () => {
    await mkdir(join(profile, 'Default'));
    await writeFile(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({ profile: { name: 'ctx' }, extensions: { settings: { other: { a: 1 } } } }),
    );
    await denyFileAccess(profile, [ID, 'x'], null);
    expect(await preferences()).toEqual({
      profile: { name: 'ctx' },
      extensions: {
        settings: { other: { a: 1 }, [ID]: { newAllowFileAccess: false }, x: { newAllowFileAccess: false } },
      },
    });
  });
});

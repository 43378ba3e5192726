import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveBrowserUser } from './browserUser.ts';

const run = promisify(execFile);

describe('resolveBrowserUser (needs root, as the service and CI have)', () => {
  it('finds a named user, refuses root and names a missing one', async () => {
    expect(await resolveBrowserUser('nobody')).toMatchObject({ name: 'nobody', uid: expect.any(Number) });
    await expect(resolveBrowserUser('root')).rejects.toThrow(/never run as root/);
    await expect(resolveBrowserUser('browserdeck-no-such-user')).rejects.toThrow(/does not exist/);
    await expect(resolveBrowserUser('bad name;')).rejects.toThrow(/not a user name/);
  });

  it('creates the default user once, even when several callers ask at the same time', async () => {
    const name = `bdtest-${randomBytes(4).toString('hex')}`;
    try {
      const users = await Promise.all(Array.from({ length: 4 }, () => resolveBrowserUser(undefined, name)));
      expect(new Set(users.map((u) => u.uid)).size).toBe(1);
      expect(users[0]).toMatchObject({ name, uid: expect.any(Number) });
      expect(users[0]!.uid).not.toBe(0);
      const shell = (await run('getent', ['passwd', name])).stdout.trim().split(':').at(-1);
      expect(shell).toBe('/usr/sbin/nologin');
    } finally {
      await run('userdel', [name]).catch(() => {});
    }
  });
});

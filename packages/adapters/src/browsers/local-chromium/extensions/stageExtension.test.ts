import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extensionZip, manifestJson } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXTENSION_DIR_NAME, stageExtension } from './stageExtension.ts';

describe('stageExtension', () => {
  let profile: string;

  beforeEach(async () => {
    profile = await mkdtemp(join(tmpdir(), 'browserdeck-stage-extension-'));
  });

  afterEach(() => rm(profile, { recursive: true, force: true }));

  it('unpacks into the profile, readable by another user, and switches file: access off for its ids, keeping other preferences', async () => {
    await mkdir(join(profile, 'Default'));
    await writeFile(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { name: 'ctx' } }));
    const zip = await extensionZip({ 'manifest.json': manifestJson(), 'js/a.js': 'x' });
    const staged = await stageExtension(zip, profile, null);

    expect(staged.dir).toBe(join(profile, EXTENSION_DIR_NAME));
    expect((await stat(join(staged.dir, 'js', 'a.js'))).mode & 0o777).toBe(0o644);
    expect(staged.ids).toEqual([expect.stringMatching(/^[a-p]{32}$/)]);
    const preferences = JSON.parse(await readFile(join(profile, 'Default', 'Preferences'), 'utf8'));
    expect(preferences.profile).toEqual({ name: 'ctx' });
    expect(preferences.extensions.settings[staged.ids[0]!]).toEqual({ newAllowFileAccess: false });
  });

  it('takes the id from the manifest’s key when it has one', async () => {
    const key = Buffer.from('a public key').toString('base64');
    const staged = await stageExtension(
      await extensionZip({ 'manifest.json': manifestJson({ key }) }),
      profile,
      null,
    );
    expect(staged.ids).toHaveLength(1);
    const keyless = await mkdtemp(join(tmpdir(), 'browserdeck-stage-extension-'));
    try {
      const other = await stageExtension(
        await extensionZip({ 'manifest.json': manifestJson({ key }) }),
        keyless,
        null,
      );
      expect(other.ids).toEqual(staged.ids);
    } finally {
      await rm(keyless, { recursive: true, force: true });
    }
  });

  it('replaces what an earlier browser left there', async () => {
    await mkdir(join(profile, EXTENSION_DIR_NAME));
    await writeFile(join(profile, EXTENSION_DIR_NAME, 'stale.js'), 'old');
    const staged = await stageExtension(
      await extensionZip({ 'manifest.json': manifestJson() }),
      profile,
      null,
    );
    await expect(stat(join(staged.dir, 'stale.js'))).rejects.toThrow();
  });

  it('refuses permissions that would reach past the confinement, also as optional ones', async () => {
    for (const manifest of [
      { permissions: ['tabs', 'proxy'] },
      { optional_permissions: ['nativeMessaging'] },
    ])
      await expect(
        stageExtension(await extensionZip({ 'manifest.json': manifestJson(manifest) }), profile, null),
      ).rejects.toMatchObject({ code: 'unsupported_option', option: 'extensionId' });
  });
});

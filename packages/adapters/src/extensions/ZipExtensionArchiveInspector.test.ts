import { EXTENSION_MAX_ENTRIES, EXTENSION_UNPACKED_MAX_BYTES } from '@browserdeck/domain';
import { extensionZip, manifestJson, rawZip } from '@browserdeck/testing/adapters';
import { describe, expect, it } from 'vitest';
import { ZipExtensionArchiveInspector } from './ZipExtensionArchiveInspector.ts';

const inspector = new ZipExtensionArchiveInspector();
const refused = (archive: Buffer, message: RegExp) =>
  expect(inspector.inspect(archive)).rejects.toMatchObject({ code: 'extension_invalid', message });

describe('ZipExtensionArchiveInspector', () => {
  it("reads a well-formed extension's manifest and counts its files", async () => {
    const zip = await extensionZip({
      'manifest.json': manifestJson({ name: '  Stagehand Runtime ', version: '4.1.0' }),
      'background.js': 'console.log(1)',
      'icons/icon.png': Buffer.alloc(1000, 7),
    });
    await expect(inspector.inspect(zip)).resolves.toEqual({
      name: 'Stagehand Runtime',
      version: '4.1.0',
      manifestVersion: 3,
      files: 3,
    });
  });

  it('takes Manifest V2 and a manifest that starts with a byte-order mark', async () => {
    const zip = rawZip([{ name: 'manifest.json', data: `\uFEFF${manifestJson({ manifest_version: 2 })}` }]);
    await expect(inspector.inspect(zip)).resolves.toMatchObject({ manifestVersion: 2, files: 1 });
  });

  it('refuses what is not a zip', async () => {
    await refused(Buffer.from('PK but not really a zip file at all'), /not a readable zip/);
  });

  it('refuses a zip whose manifest is in a folder, not at the root', async () => {
    await refused(
      await extensionZip({ 'ext/manifest.json': manifestJson() }),
      /no manifest\.json at its root/,
    );
  });

  it.each([
    ['not JSON', '{ name: ', /not valid JSON/],
    ['an array', '[]', /not a JSON object/],
    ['without a name', JSON.stringify({ manifest_version: 3, version: '1' }), /"name"/],
    ['with a blank name', manifestJson({ name: '  ' }), /"name"/],
    [
      'with a line break in its name',
      manifestJson({ name: 'Evil\nINFO forged log line' }),
      /"name" must not contain control/,
    ],
    [
      'with an escape sequence in its name',
      manifestJson({ name: 'Evil\u001b[2J' }),
      /"name" must not contain control/,
    ],
    [
      'with a C1 control or NUL in its name',
      manifestJson({ name: 'a\u0085b\u0000' }),
      /"name" must not contain control/,
    ],
    ['with a tab around its name', manifestJson({ name: '\tStagehand' }), /"name" must not contain control/],
    ['with a lone surrogate in its name', manifestJson({ name: 'a\ud800' }), /"name" must be well-formed/],
    ['without a version', JSON.stringify({ manifest_version: 3, name: 'x' }), /"version"/],
    [
      'with a control character in its version',
      manifestJson({ version: '1.0\r' }),
      /"version" must not contain control/,
    ],
    ['with manifest_version 1', manifestJson({ manifest_version: 1 }), /"manifest_version" 2 or 3/],
    ['with manifest_version "3"', manifestJson({ manifest_version: '3' }), /"manifest_version" 2 or 3/],
  ])('refuses a manifest %s', async (_, manifest, message) => {
    await refused(await extensionZip({ 'manifest.json': manifest }), message);
  });

  it.each([
    ['../evil.js', /a "\.\." segment/],
    ['a/../../evil.js', /a "\.\." segment/],
    ['/etc/evil.js', /absolute path/],
    ['C:/evil.js', /drive letter/],
    ['a\\..\\evil.js', /backslash/],
    ['a\u0000b.js', /control character/],
    ['./a.js', /a "\." segment/],
    ['a//b.js', /empty segment/],
  ])('refuses the unsafe path %j', async (name, message) => {
    await refused(
      rawZip([
        { name: 'manifest.json', data: manifestJson() },
        { name, data: 'x' },
      ]),
      message,
    );
  });

  it('refuses symlinks and other special files, whatever they point at', async () => {
    const link = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'passwd', data: '/etc/passwd', mode: 0o120777 },
    ]);
    await refused(link, /symlink or special file/);
    const fifo = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'pipe', mode: 0o010644 },
    ]);
    await refused(fifo, /symlink or special file/);
  });

  it('refuses the same path twice, and a path that is both a file and a folder', async () => {
    const twice = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'manifest.json', data: manifestJson({ name: 'Other' }) },
    ]);
    await refused(twice, /twice/);
    const both = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'lib', data: 'x' },
      { name: 'lib/a.js', data: 'y' },
    ]);
    await refused(both, /both a file and a folder/);
  });

  it('refuses more entries than the limit, from the central directory', async () => {
    const entries = Array.from({ length: EXTENSION_MAX_ENTRIES }, (_, i) => ({ name: `f${i}.js`, data: '' }));
    await refused(
      rawZip([{ name: 'manifest.json', data: manifestJson() }, ...entries]),
      /entries; at most 2000/,
    );
  });

  it('refuses a declared unpacked size past the limit before inflating anything', async () => {
    const zip = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'big.bin', data: 'tiny', deflate: true, declaredSize: EXTENSION_UNPACKED_MAX_BYTES },
    ]);
    await refused(zip, /more than 52428800 bytes once unpacked/);
  });

  it('refuses a file that inflates to more than it declares (a zip bomb that lies)', async () => {
    const zip = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'bomb.bin', data: Buffer.alloc(4 * 1024 * 1024), deflate: true, declaredSize: 10 },
    ]);
    await refused(zip, /bomb\.bin/);
  });

  it('refuses an oversized manifest', async () => {
    const zip = await extensionZip({ 'manifest.json': manifestJson({ padding: 'x'.repeat(1024 * 1024) }) });
    await refused(zip, /manifest\.json is larger than/);
  });
});

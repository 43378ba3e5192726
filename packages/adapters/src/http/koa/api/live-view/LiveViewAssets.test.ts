import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveViewAssets } from './LiveViewAssets.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A temporary folder with `files`, and its (empty) `assets` subfolder, which is returned. */
function folder(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'live-assets-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  mkdirSync(join(dir, 'assets'));
  return join(dir, 'assets');
}

describe('LiveViewAssets', () => {
  it('serves the files of its folder by name with their type, and nothing else', async () => {
    const root = folder({ 'secret.js': 'outside' });
    writeFileSync(join(root, 'live.js'), 'export {};');
    writeFileSync(join(root, 'live.css'), 'body{}');
    writeFileSync(join(root, 'live.html'), '<!doctype html><title>v</title>');
    writeFileSync(join(root, 'notes.txt'), 'x');
    const assets = new LiveViewAssets(root);

    expect(await assets.file('live.js')).toEqual({
      body: Buffer.from('export {};'),
      contentType: 'text/javascript; charset=utf-8',
    });
    expect((await assets.file('live.css'))?.contentType).toBe('text/css; charset=utf-8');
    for (const name of [
      '../secret.js',
      '..%2Fsecret.js',
      'live.html',
      'notes.txt',
      '.live.js',
      'sub/live.js',
      'a..js',
      'nope.js',
      '',
    ]) {
      expect(await assets.file(name), name).toBeNull();
    }
    expect(await assets.page()).toBe('<!doctype html><title>v</title>');
  });

  it('keeps a file once read, and a page that is not there is a placeholder', async () => {
    const root = folder({});
    const assets = new LiveViewAssets(root);
    expect(await assets.file('late.js')).toBeNull();
    writeFileSync(join(root, 'late.js'), 'one');
    expect((await assets.file('late.js'))?.body.toString()).toBe('one');
    writeFileSync(join(root, 'late.js'), 'two');
    expect((await assets.file('late.js'))?.body.toString()).toBe('one');
    expect(await assets.page()).toMatch(/^<!doctype html>[\s\S]*not installed/);
  });

  it('finds the package’s own folder by default', async () => {
    dir = mkdtempSync(join(tmpdir(), 'live-assets-'));
    expect((await new LiveViewAssets().page()).length).toBeGreaterThan(0);
    expect((await new LiveViewAssets().file('live.js'))?.contentType).toBe('text/javascript; charset=utf-8');
  });
});

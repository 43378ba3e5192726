import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET_BYTES, measureBuild } from '../scripts/measureBuild.ts';

/**
 * The console as `npm run build -w @browserdeck/console` emits it (built here into a scratch folder):
 * what the server's Content-Security-Policy and caching rely on, and the size budget.
 */
let outDir: string;
let html: string;
let assets: string[];
beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'browserdeck-console-build-'));
  await build({
    root: join(import.meta.dirname, '..'),
    configFile: join(import.meta.dirname, '..', 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  html = await readFile(join(outDir, 'index.html'), 'utf8');
  assets = await readdir(join(outDir, 'assets'));
}, 120_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe('the console build', () => {
  it('has no inline script, style or event handler in its page (the CSP allows none)', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/modulepreload-polyfill|relList/);
  });

  it('links its files with relative URLs, so it works under any mount prefix', () => {
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) expect(url).toMatch(/^\.\//);
  });

  it('names every asset by its content hash (served immutable)', () => {
    expect(assets.some((name) => name.endsWith('.js'))).toBe(true);
    expect(assets.some((name) => name.endsWith('.css'))).toBe(true);
    for (const name of assets) expect(name).toMatch(/^[A-Za-z0-9_]+-[A-Za-z0-9_-]{8}\.(js|css)$/);
  });

  it('needs no eval (the CSP has no unsafe-eval)', async () => {
    for (const name of assets.filter((n) => n.endsWith('.js'))) {
      const code = await readFile(join(outDir, 'assets', name), 'utf8');
      expect(code, name).not.toMatch(/\beval\(|new Function\(/);
    }
  });

  it(`stays within ${BUDGET_BYTES / 1000} KB of JavaScript and CSS, gzipped`, () => {
    const { files, totalGzip } = measureBuild(outDir);
    expect(files.length).toBe(assets.length);
    expect(totalGzip).toBeGreaterThan(10_000);
    expect(totalGzip).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});

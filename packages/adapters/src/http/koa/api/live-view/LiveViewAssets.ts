import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The asset file names served: no folders, no dot files, known types only. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.(js|css|svg|png|ico|woff2)$/;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
};

/** The page served until the viewer's own page is in the assets folder. */
const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Live view</title></head>
<body><main><h1>Live view</h1><p role="status">The live-view page is not installed.</p></main></body>
</html>
`;

/** One asset, ready to send. */
export interface LiveViewAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * The viewer page (`live.html`) and its static files, from the package's `live-view/assets` folder:
 * beside this module when it runs from the sources, else the copy in the package's `src` (the build
 * compiles TypeScript only). Each file is read once, then kept.
 */
export class LiveViewAssets {
  private readonly dir: string;
  private readonly cache = new Map<string, Promise<LiveViewAsset | null>>();
  private pageText: Promise<string> | undefined;

  constructor(dir: string = defaultAssetsDir()) {
    this.dir = dir.endsWith('/') ? dir : `${dir}/`;
  }

  /** The viewer page's HTML, sent as it is (it finds its WebSocket from its own address). */
  page(): Promise<string> {
    this.pageText ??= readFile(`${this.dir}live.html`, 'utf8').catch(() => PLACEHOLDER_PAGE);
    return this.pageText;
  }

  /** A static file by name; null for a name that is not an asset's or a file that is not there. */
  file(name: string): Promise<LiveViewAsset | null> {
    const match = ASSET_NAME.exec(name);
    if (!match || name.includes('..')) return Promise.resolve(null);
    let cached = this.cache.get(name);
    if (!cached) {
      cached = readFile(`${this.dir}${name}`).then(
        (body) => ({ body, contentType: CONTENT_TYPES[match[1] as string] as string }),
        () => null,
      );
      // Only files that exist are kept: the set of names asked for is the client's to choose.
      void cached.then((asset) => {
        if (!asset) this.cache.delete(name);
      });
      this.cache.set(name, cached);
    }
    return cached;
  }
}

function defaultAssetsDir(): string {
  const beside = fileURLToPath(new URL('./assets/', import.meta.url));
  if (existsSync(beside)) return beside;
  // dist/http/koa/live-view/ → the package's src/http/koa/live-view/assets/.
  return fileURLToPath(new URL('../../../../../src/http/koa/api/live-view/assets/', import.meta.url));
}

import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Content types of what a Vite build emits; anything else is served as bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** Types worth compressing. */
const COMPRESSIBLE = /^(?:text\/|application\/json|image\/svg\+xml)/;

/** One file of the console, ready to send. */
export interface ConsoleFile {
  body: Buffer;
  /** The body gzipped, when that is worth it (text over 1 KiB). */
  gzip: Buffer | undefined;
  contentType: string;
  /** A strong validator of the body. */
  etag: string;
}

interface Cached {
  file: ConsoleFile;
  mtimeMs: number;
  size: number;
}

/**
 * Reads the built console's files from `root`, keeping each in memory until it changes on disk (one
 * `stat` per request: a rebuild while the server runs is served at once). A path that leaves
 * `root`, also through a symbolic link, reads as missing.
 */
export class ConsoleFiles {
  readonly root: string;
  readonly #cache = new Map<string, Cached>();

  constructor(root: string) {
    this.root = root;
  }

  /** The file at `segments` below the root (already checked by `consolePath`), or `undefined`. */
  async read(segments: readonly string[]): Promise<ConsoleFile | undefined> {
    const path = join(this.root, ...segments);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const cached = this.#cache.get(path);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.file;
    const [realRoot, realPath] = await Promise.all([realpath(this.root), realpath(path)]);
    if (!realPath.startsWith(realRoot + sep)) return undefined;
    const body = await readFile(path);
    const file = consoleFile(body, CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream');
    this.#cache.set(path, { file, mtimeMs: info.mtimeMs, size: info.size });
    return file;
  }
}

/** A file to send: its body, its gzipped body when worth it, its type and ETag. */
export function consoleFile(body: Buffer, contentType: string): ConsoleFile {
  const gzip = COMPRESSIBLE.test(contentType) && body.length > 1024 ? gzipSync(body) : undefined;
  const digest = createHash('sha256').update(body).digest('base64url');
  return { body, gzip, contentType, etag: `"${digest}"` };
}

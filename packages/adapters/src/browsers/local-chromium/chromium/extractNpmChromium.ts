import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

const PACKAGE = '@sparticuz/chromium';
const inflight = new Map<string, Promise<string | null>>();

/** An unpack about to start: the package version, its compressed size and where it goes. */
export interface NpmChromiumUnpack {
  readonly version: string;
  readonly compressedBytes: number;
  readonly target: string;
}

/**
 * The Chromium shipped inside the optional npm package `@sparticuz/chromium` (a brotli-compressed
 * `chrome-headless-shell`), unpacked once into `<cacheDir>/browserdeck-chromium-<version>/chromium`.
 * Unlike the package's own `executablePath()` (which writes `/tmp/chromium` in place), the binary is
 * written to a temporary name and renamed, so concurrent processes never run a half-written file.
 * Null when the package is not installed. `onUnpack` is told before an unpack starts (not when the
 * browser is there already, nor when another caller of this process is unpacking it).
 */
export async function extractNpmChromium(
  cacheDir: string = tmpdir(),
  onUnpack?: (unpack: NpmChromiumUnpack) => void,
): Promise<string | null> {
  const existing = inflight.get(cacheDir);
  if (existing) return existing;
  const promise = extract(cacheDir, onUnpack).catch((error: unknown) => {
    inflight.delete(cacheDir);
    throw error;
  });
  inflight.set(cacheDir, promise);
  return promise;
}

async function extract(
  cacheDir: string,
  onUnpack: ((unpack: NpmChromiumUnpack) => void) | undefined,
): Promise<string | null> {
  const packageDir = locatePackage();
  if (!packageDir) return null;
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const source = join(packageDir, 'bin', 'chromium.br');
  const target = join(cacheDir, `browserdeck-chromium-${manifest.version}`, 'chromium');
  if (await isExecutable(target)) return target;
  if (!(await exists(source))) return null;
  onUnpack?.({ version: manifest.version, compressedBytes: (await stat(source)).size, target });
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.partial`;
  try {
    await pipeline(
      createReadStream(source),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    );
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  return target;
}

function locatePackage(): string | null {
  try {
    // build/cjs/index.cjs → the package root is two folders up.
    return join(dirname(createRequire(import.meta.url).resolve(PACKAGE)), '..', '..');
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path, constants.F_OK).then(
    () => true,
    () => false,
  );
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

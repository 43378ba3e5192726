import type { NpmChromiumUnpack } from './extractNpmChromium.ts';
import type { FoundChromium } from './findChromium.ts';

/** chromium.br unpacks to about 3.1 times its size (147.0.0: 60.7 MiB to 187.6 MiB). */
const UNPACK_RATIO = 3.09;

/** Where the browser came from, for the start-up log: `CHROMIUM_PATH`, a paired headless shell, the npm package, a system browser. */
export function describeChromiumSource(found: FoundChromium): string {
  switch (found.source) {
    case 'option':
      return `the configured path (chromiumPath, the server's CHROMIUM_PATH): ${found.path}`;
    case 'env':
      return `CHROMIUM_PATH: ${found.path}`;
    case 'paired':
      return `Debian's headless shell, paired with the chromedriver of its version: ${found.path}`;
    case 'system':
      return `the system's browser: ${found.path}`;
    case 'npm':
      return `the npm package @sparticuz/chromium (its headless shell), unpacked at ${found.path}`;
  }
}

/** Said before the npm package's browser is unpacked, so a slow first start is explained. */
export function npmChromiumUnpackMessage(unpack: NpmChromiumUnpack): string {
  const mb = (bytes: number) => Math.round(bytes / 1_048_576);
  return (
    `local provider: unpacking Chromium from @sparticuz/chromium ${unpack.version} ` +
    `(${mb(unpack.compressedBytes)} MB compressed, about ${mb(unpack.compressedBytes * UNPACK_RATIO)} MB unpacked) ` +
    `into ${unpack.target}; only the first start does this, and it takes a while`
  );
}

/** The start-up line: which browser runs (its `--version`, when it answered) and where it came from. */
export function chromiumFoundMessage(found: FoundChromium, version: string | null): string {
  return `local provider: ${version ?? 'Chromium (its --version did not answer)'} from ${describeChromiumSource(found)}`;
}

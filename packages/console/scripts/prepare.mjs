/**
 * The repository's `prepare` script (npm ci and npm install run it after installing): builds the
 * console into `packages/console/dist`, which the server serves at /console (docs/console.md).
 * An install without dev dependencies (`npm ci --omit=dev`) has no build tools: then it says how to
 * build the console and succeeds, and /console answers 503 until the console is built.
 * Plain JavaScript, so whatever Node runs the install can run it.
 */

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const consoleDir = join(import.meta.dirname, '..');
const require = createRequire(join(consoleDir, 'package.json'));

let vitePackage;
try {
  vitePackage = require.resolve('vite/package.json');
} catch {
  console.warn(
    '@browserdeck/console: Vite is not installed (dev dependencies left out), so the web console was not built;\n' +
      '/console answers 503 until `npm run build -w @browserdeck/console` runs with dev dependencies installed.',
  );
  process.exit(0);
}

const { bin } = require(vitePackage);
const viteBin = join(dirname(vitePackage), typeof bin === 'string' ? bin : bin.vite);
const result = spawnSync(process.execPath, [viteBin, 'build'], { cwd: consoleDir, stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);

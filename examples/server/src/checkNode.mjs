// Preloaded by `npm start` (`node --import ./examples/server/src/checkNode.mjs …`), so it runs before
// `main.ts` is even read. Plain JavaScript on purpose: a Node too old to strip TypeScript types
// (below 22.18) must still get to run it. It mirrors @browserdeck/adapters' unsupportedNodeMessage,
// which a Node this old cannot import.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** @type {string} */
const range = manifest.engines.node;
const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
const [major, minor, patch] = process.versions.node.split('.').map(Number);
if (minimum) {
  const [wantMajor, wantMinor, wantPatch] = minimum.slice(1).map((part) => Number(part ?? 0));
  if ((major - wantMajor || minor - wantMinor || patch - wantPatch) < 0) {
    process.stderr.write(
      `Browserdeck needs Node ${range}; this is Node ${process.versions.node} (${process.execPath}). ` +
        '`npm start` runs the pinned Node 24 of node_modules/.bin/node: run `npm ci` (it installs ' +
        'the `node` dev dependency) and `npm start` again, or install Node 24 ' +
        '(`nvm install 24 && nvm use 24`).\n',
    );
    process.exit(1);
  }
}

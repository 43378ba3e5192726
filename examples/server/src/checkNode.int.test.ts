import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` preloads checkNode.mjs (`node --import …`): on a Node below the server's `engines`
 * it stops with one message before `main.ts` is read, instead of `ERR_UNKNOWN_FILE_EXTENSION` (no type
 * stripping) or a segmentation fault (the SQLite driver's binary on Node 20). The older Node is the
 * system one when this machine has it (Debian's /usr/bin/node); the test skips without it.
 */
const guard = fileURLToPath(new URL('./checkNode.mjs', import.meta.url));
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const range: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines
  .node;

function runNode(
  node: string,
  args: string[],
): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((done) => {
    execFile(node, args, { env: { PATH: '/usr/bin:/bin' }, timeout: 30_000 }, (error, stdout, stderr) => {
      done({
        code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
        signal: error?.signal ?? null,
        output: stdout + stderr,
      });
    });
  });
}

/** The system Node (path and version) when it is older than the range (`>=major.minor[.patch]`). */
function olderSystemNode(): { node: string; version: string } | undefined {
  const node = '/usr/bin/node';
  if (!existsSync(node)) return undefined;
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [wantMajor = 0, wantMinor = 0, wantPatch = 0] = range.replace(/^>=/, '').split('.').map(Number);
  return (major - wantMajor || minor - wantMinor || patch - wantPatch) < 0 ? { node, version } : undefined;
}

describe('the Node version guard of npm start', () => {
  it('lets the Node in the range through to the server', async () => {
    const result = await runNode(process.execPath, ['--import', guard, '-e', 'console.log("main ran")']);
    expect(result).toEqual({ code: 0, signal: null, output: 'main ran\n' });
  });

  const older = olderSystemNode();
  it.skipIf(!older)(
    'stops an older system Node with one message: its version, the range and the fix',
    async () => {
      const { node, version } = older!;
      const result = await runNode(node, ['--import', guard, '--conditions=source', main]);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      expect(result.output).toBe(
        `Browserdeck needs Node ${range}; this is Node ${version} (${node}). \`npm start\` runs the pinned ` +
          'Node 24 of node_modules/.bin/node: run `npm ci` (it installs the `node` dev dependency) and ' +
          '`npm start` again, or install Node 24 (`nvm install 24 && nvm use 24`).\n',
      );
    },
  );
});

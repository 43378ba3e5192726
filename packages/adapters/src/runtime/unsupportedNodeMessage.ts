/** The Node versions the published packages run on: their `engines.node` (a test keeps the two equal). */
export const SUPPORTED_NODE_RANGE = '>=22.17.0';

/**
 * Why `running` (a Node version, `v20.20.2` or `20.20.2`) cannot run `what`, which needs `range`
 * (`>=major[.minor[.patch]]`, the only form `engines` uses here); `undefined` when it can. The
 * message names both versions and the fix, so a user on an old Node reads one sentence instead of a
 * segmentation fault (better-sqlite3's prebuilt binary crashes Node 20) or a syntax error.
 */
export function unsupportedNodeMessage(
  what: string,
  running: string,
  range: string = SUPPORTED_NODE_RANGE,
  execPath?: string,
): string | undefined {
  const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  const current = /^v?(\d+)\.(\d+)\.(\d+)/.exec(running.trim());
  // A range or version this check cannot read is left to npm's own engines warning.
  if (!minimum || !current) return undefined;
  const [major, minor, patch] = current.slice(1).map(Number) as [number, number, number];
  const [wantMajor, wantMinor, wantPatch] = minimum.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
  ];
  if ((major - wantMajor || minor - wantMinor || patch - wantPatch) >= 0) return undefined;
  const where = execPath ? ` (${execPath})` : '';
  return (
    `${what} needs Node ${range}; this is Node ${major}.${minor}.${patch}${where}. ` +
    'Install Node 24 (`nvm install 24 && nvm use 24`, or your platform’s Node 24 package) and run it ' +
    'again; in a Browserdeck clone, `npm start` and `npm test` already use the pinned Node 24 of ' +
    'node_modules/.bin/node.'
  );
}

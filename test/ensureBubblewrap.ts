import { aptGetInstall, succeeds } from './aptGetInstall.ts';

/**
 * The isolation suite runs the local provider's `bubblewrap` level for real, so the tests install
 * Debian's `bubblewrap` when it is missing (as root, with apt-get): `npm ci && npm test` needs
 * nothing installed beforehand. Where that cannot be done the suite fails with the provider's own
 * message naming what is missing; it never skips.
 */
export async function ensureBubblewrap(log: (line: string) => void = console.log): Promise<void> {
  if (await succeeds('bwrap', ['--version'])) return;
  await aptGetInstall(['bubblewrap'], 'the browser isolation tests', log);
}

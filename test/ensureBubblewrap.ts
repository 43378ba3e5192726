import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The isolation suite runs the local provider's `bubblewrap` level for real, so the tests install
 * Debian's `bubblewrap` when it is missing (as root, with apt-get): `npm ci && npm test` needs
 * nothing installed beforehand. Where that cannot be done the suite fails with the provider's own
 * message naming what is missing; it never skips.
 */
export async function ensureBubblewrap(log: (line: string) => void = console.log): Promise<void> {
  if (await succeeds('bwrap', ['--version'])) return;
  if (process.getuid?.() !== 0 || !(await succeeds('apt-get', ['--version']))) {
    log('bubblewrap is not installed and cannot be installed here (needs root and apt-get)');
    return;
  }
  log('installing bubblewrap (apt-get) for the browser isolation tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env, timeout: 300_000 }).catch(() => {});
  await run('apt-get', ['install', '-y', '-qq', 'bubblewrap'], { env, timeout: 300_000 }).catch(
    (error: Error) => log(`could not install bubblewrap: ${error.message.split('\n')[0]}`),
  );
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args, { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

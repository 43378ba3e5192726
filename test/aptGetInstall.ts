import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Installs Debian packages with apt-get (as root), for what the tests run for real: `npm ci && npm
 * test` needs nothing installed beforehand. Where that cannot be done (not root, no apt-get) it says
 * so and returns; the tests that need the package then fail with their own message, never skip.
 */
export async function aptGetInstall(
  packages: readonly string[],
  why: string,
  log: (line: string) => void = console.log,
): Promise<void> {
  const names = packages.join(' ');
  if (process.getuid?.() !== 0 || !(await succeeds('apt-get', ['--version']))) {
    log(`${names} is not installed and cannot be installed here (needs root and apt-get)`);
    return;
  }
  log(`installing ${names} (apt-get) for ${why}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env, timeout: 300_000 }).catch(() => {});
  await run('apt-get', ['install', '-y', '-qq', ...packages], { env, timeout: 900_000 }).catch(
    (error: Error) => log(`could not install ${names}: ${error.message.split('\n')[0]}`),
  );
}

/** True when `command args` runs and exits 0 within 10 s. */
export async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args, { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

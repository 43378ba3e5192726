import { execFile } from 'node:child_process';

const VERSION_TIMEOUT_MS = 10_000;

/**
 * What the browser at `path` says it is (`--version`: "Chromium 147.0.7727.0", "Chromium
 * 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)", "Google Chrome 148…"), for the start-up
 * log; null when it does not answer. It runs unconfined, as the service's user, and starts no browser.
 */
export function chromiumVersion(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ['--version'], { timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      const line = String(stdout).trim().split('\n')[0]?.trim();
      resolve(error || !line ? null : line);
    });
  });
}

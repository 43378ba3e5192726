/**
 * The major version in a browser's or chromedriver's `--version` line ("Chromium 156.0.8078.108 built
 * on Debian…", "ChromeDriver 156.0.8078.108 (…)", "Google Chrome 148.0…"); null when it names none.
 * chromedriver attaches only to a browser of its own major version.
 */
export function majorVersion(versionLine: string | null): number | null {
  const found = versionLine ? /\b(\d+)\.\d+\.\d+(\.\d+)?\b/.exec(versionLine) : null;
  return found ? Number(found[1]) : null;
}

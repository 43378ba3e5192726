/**
 * Flags every local browser starts with: headless, no sandbox (we run as root in containers), no
 * background traffic to Google (this host's network is closed, and we do not want it anyway), and
 * a DevTools endpoint on loopback only, on a port the OS picks. `--remote-debugging-pipe` is
 * never used for CDP: the browser exits when that pipe closes, so browsers die with the service
 * even when it is killed without a chance to clean up.
 */
export function chromiumArgs(profileDir: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-breakpad',
    '--disable-dev-shm-usage',
    '--mute-audio',
    '--password-store=basic',
    '--use-mock-keychain',
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    '--remote-debugging-pipe',
    `--user-data-dir=${profileDir}`,
    'about:blank',
  ];
}

/** What varies between launches. */
export interface ChromiumArgsOptions {
  /** Chromium's own sandbox; off only when the browser would run as root (`LOCAL_ISOLATION=off`). */
  readonly sandbox: boolean;
  /** The egress proxy every request goes through (`http://127.0.0.1:<port>`). */
  readonly proxyUrl: string | null;
  /**
   * The window size, which the headless shell's pages take as their viewport (`innerWidth` and
   * `innerHeight`; a full Chromium's window is fitted afterwards: `fitWindowToViewport`); absent or
   * null for Chromium's default (800×600).
   */
  readonly windowSize?: { readonly width: number; readonly height: number } | null;
  /**
   * A session's unpacked extension (`extensions/stageExtension`), the only one the browser loads
   * (`--disable-extensions-except`); a full Chromium is needed (a headless shell ignores it).
   */
  readonly extensionDir?: string | null;
}

/** Browser UI a headless browser never shows, made of the browser's own pages. */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Flags every local browser starts with: headless; DevTools over `--remote-debugging-pipe` only
 * (fd 3 and 4: no TCP port exists for a page, or another tenant, to reach; the browser also exits
 * when the pipe closes, so it dies with the service); no background traffic to Google; and all
 * traffic through the egress proxy: loopback is not exempted (`<-loopback>`), QUIC is off (it would
 * bypass an HTTP proxy) and WebRTC may only use proxied connections; no browser UI made of the
 * browser's own pages (`DISABLED_FEATURES`).
 */
export function chromiumArgs(profileDir: string, options: ChromiumArgsOptions): string[] {
  return [
    '--headless',
    // A full Chromium shows an "unsupported command-line flag" bar over the first page for
    // --no-sandbox, a moment after start, shrinking its viewport: --test-type keeps it away.
    ...(options.sandbox ? [] : ['--no-sandbox', '--test-type']),
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
    '--remote-debugging-pipe',
    // A full Chromium preloads its omnibox popups as WebUI (chrome://omnibox-popup.top-chrome, with
    // Mojo), which a client could attach to; blocked (blockBrowserPages) they would be stray pages.
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ...(options.proxyUrl
      ? [
          `--proxy-server=${options.proxyUrl}`,
          '--proxy-bypass-list=<-loopback>',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          '--webrtc-ip-handling-policy=disable_non_proxied_udp',
        ]
      : []),
    ...(options.windowSize ? [`--window-size=${options.windowSize.width},${options.windowSize.height}`] : []),
    ...(options.extensionDir
      ? [`--load-extension=${options.extensionDir}`, `--disable-extensions-except=${options.extensionDir}`]
      : []),
    `--user-data-dir=${profileDir}`,
    'about:blank',
  ];
}

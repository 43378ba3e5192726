/** What one Grid node offers: Chromium sessions through one ChromeDriver. */
export interface GridNodeConfig {
  readonly chromedriver: string;
  readonly chromium: string;
  readonly maxSessions: number;
  /** The node ends a session idle this long (`--session-timeout`). */
  readonly sessionTimeoutSec: number;
  /** How long a new-session request may wait in the queue (`--session-request-timeout`); standalone only. */
  readonly sessionRequestTimeoutSec?: number;
  /** Whether the node runs as root, when Chromium needs `--no-sandbox` (default: this process's user). */
  readonly asRoot?: boolean;
}

/**
 * The TOML `--config` of a node (or of a standalone server, which is a node too): no driver detection,
 * no Selenium Manager, one `[[node.driver-configuration]]` for `browserName: 'chrome'` whose
 * stereotype names the browser binary (the Grid sets it on requests that name none), and `--no-sandbox`
 * when the node runs as root (Chromium's sandbox refuses root). `max-sessions`
 * may exceed the machine's processors (`override-max-sessions`), so a test sees the same slots on
 * every machine.
 */
export function gridNodeToml(config: GridNodeConfig): string {
  // Chromium's sandbox refuses to run as root: a node started by root (CI) runs it without.
  const asRoot = config.asRoot ?? process.getuid?.() === 0;
  const stereotype = JSON.stringify({
    browserName: 'chrome',
    'goog:chromeOptions': { binary: config.chromium, ...(asRoot ? { args: ['--no-sandbox'] } : {}) },
  });
  const lines = [
    '[node]',
    'detect-drivers = false',
    'selenium-manager = false',
    `max-sessions = ${config.maxSessions}`,
    'override-max-sessions = true',
    `session-timeout = ${config.sessionTimeoutSec}`,
    '',
    '[[node.driver-configuration]]',
    'display-name = "Chromium"',
    `webdriver-executable = ${tomlString(config.chromedriver)}`,
    `max-sessions = ${config.maxSessions}`,
    `stereotype = ${tomlString(stereotype)}`,
  ];
  if (config.sessionRequestTimeoutSec !== undefined)
    lines.push('', ...sessionQueueToml(config.sessionRequestTimeoutSec));
  return `${lines.join('\n')}\n`;
}

/** The `[sessionqueue]` table: requests time out after `timeoutSec`, checked every second. */
export function sessionQueueToml(timeoutSec: number): string[] {
  return ['[sessionqueue]', `session-request-timeout = ${timeoutSec}`, 'session-request-timeout-period = 1'];
}

/** A TOML basic string (JSON's escapes are valid TOML for what we write). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

import { isJsonObject } from './requestedCapabilities.ts';

/**
 * Capabilities that hold the addresses of the browser's machinery (a Grid node's DevTools, VNC and
 * BiDi sockets, the Grid's own WebSocket base: not reachable for a client, and not served through
 * this endpoint, whose DevTools is the session's `connectUrl`) or details of the host it runs on
 * (the driver's path, the browser's process id).
 */
const INTERNAL = [
  'se:cdp',
  'se:vnc',
  'se:vncLocalAddress',
  'se:gridWebSocketUrl',
  'se:bidi',
  'webSocketUrl',
  'se:webDriverExecutable',
  'goog:processID',
];

/** Vendor options whose `debuggerAddress` is the browser's loopback DevTools address (the bridge's, a node's). */
const VENDOR_OPTIONS = ['goog:chromeOptions', 'ms:edgeOptions'];

/**
 * The capabilities of a session's WebDriver session as a client is answered them: as the session's
 * WebDriver server gave them, without the addresses of its machinery (`INTERNAL`, the vendor
 * options' `debuggerAddress` and `chrome.userDataDir`, a folder on the host), `timeouts` as set.
 */
export function publicCapabilities(
  actual: Readonly<Record<string, unknown>>,
  timeouts: unknown,
): Record<string, unknown> {
  const answer: Record<string, unknown> = { ...actual, timeouts };
  for (const name of INTERNAL) delete answer[name];
  for (const name of VENDOR_OPTIONS) {
    const options = answer[name];
    if (!isJsonObject(options) || !('debuggerAddress' in options)) continue;
    const { debuggerAddress: _internal, ...rest } = options;
    answer[name] = rest;
  }
  if (isJsonObject(answer.chrome) && 'userDataDir' in answer.chrome) {
    const { userDataDir: _folder, ...rest } = answer.chrome;
    answer.chrome = rest;
  }
  return answer;
}

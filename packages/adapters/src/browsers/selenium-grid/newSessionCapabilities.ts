import type { CreateBrowserRequest, SessionViewport } from '@browserdeck/domain';

/** The window (and page) size of a session that asks for none: the local provider's default. */
export const GRID_DEFAULT_WINDOW: SessionViewport = { width: 800, height: 600 };

/**
 * The W3C capabilities (`alwaysMatch`) of a new Grid session: Chrome (any Chromium a node offers as
 * `chrome`) with `se:cdpEnabled`, headless, the viewport as its window size, and `se:name` naming our
 * session for the Grid's own console. `extra` (the operator's `capabilities` option) goes first, so
 * what Browserdeck needs wins; its Chrome arguments and the `chromeArgs` option are kept, after ours.
 */
export function newSessionCapabilities(
  request: Pick<CreateBrowserRequest, 'sessionId' | 'viewport'>,
  options: {
    chromeArgs?: readonly string[] | undefined;
    extra?: Readonly<Record<string, unknown>> | undefined;
  },
): Record<string, unknown> {
  const extra = options.extra ?? {};
  const theirChrome = (extra['goog:chromeOptions'] ?? {}) as Record<string, unknown>;
  const theirArgs = Array.isArray(theirChrome.args) ? (theirChrome.args as unknown[]).map(String) : [];
  const window = request.viewport ?? GRID_DEFAULT_WINDOW;
  const ours = ['--headless=new', `--window-size=${window.width},${window.height}`, '--no-first-run'];
  const args = [...ours, ...theirArgs, ...(options.chromeArgs ?? [])];
  return {
    ...extra,
    browserName: 'chrome',
    'se:cdpEnabled': true,
    'se:name': `browserdeck ${request.sessionId}`,
    'goog:chromeOptions': { ...theirChrome, args: [...new Set(args)] },
  };
}

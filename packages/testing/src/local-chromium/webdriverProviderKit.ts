import { access, constants } from 'node:fs/promises';
import {
  findChromedriver,
  LocalChromiumProvider,
  type LocalChromiumProviderOptions,
} from '@browserdeck/adapters/local-chromium';
import { SystemClock } from '@browserdeck/domain';
import { serveProvider } from '../adapters/http/serveProvider.ts';
import { makeScratchDir } from './localChromiumTestKit.ts';

/** Debian's headless shell, which its chromedriver (`chromium-driver`) pairs with. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** WebDriver tests need Debian's paired build; without it they fail saying what to install. */
export async function requirePairedBuild(): Promise<void> {
  const driver = await findChromedriver().catch(() => null);
  const shell = await access(HEADLESS_SHELL, constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!shell || !driver)
    throw new Error(
      'The WebDriver tests need Debian’s headless shell and its chromedriver: ' +
        '`apt-get install chromium-headless-shell chromium-driver`.',
    );
}

/**
 * A local provider behind the service's own HTTP app (`serveProvider`): its WebDriver endpoint and
 * connect upgrades served as `npm start` serves them, in a scratch folder removed at `close`.
 */
export async function startWebDriverProvider(overrides: Partial<LocalChromiumProviderOptions> = {}) {
  const scratch = await makeScratchDir();
  const served = await serveProvider(
    (publicUrl) =>
      new LocalChromiumProvider({
        publicUrl,
        dataDir: scratch.dir,
        tempDir: scratch.dir,
        maxSessions: 3,
        maxSessionsPerOwner: 3,
        warmBrowsers: 0,
        clock: new SystemClock(),
        egress: { allow: ['127.0.0.1/32'] },
        ...overrides,
      }),
  ).catch(async (error: unknown) => {
    await scratch.remove();
    throw error;
  });
  return {
    provider: served.provider,
    close: async () => {
      await served.close();
      await scratch.remove();
    },
  };
}

/** A raw WebDriver request on a session's endpoint: the status and the JSON body. */
export async function callWebDriver(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { value: Record<string, unknown> } };
}

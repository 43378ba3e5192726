import { SeleniumGridProvider, type SeleniumGridProviderOptions } from '@browserdeck/adapters/selenium-grid';
import { type CreateBrowserRequest, SystemClock } from '@browserdeck/domain';
import { serveProvider } from '../adapters/http/serveProvider.ts';
import { browserRequest } from '../domain/browserRequest.ts';

/** Chromium refuses to run as root without this; a Grid operator would set it in the node's stereotype. */
export const ROOT_CHROME_ARGS: readonly string[] = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

/**
 * A Selenium Grid provider on `gridUrl`, its connect and WebDriver endpoints served by the service's
 * own HTTP app (`serveProvider`), `overrides` over test-friendly options.
 */
export function startGridProvider(gridUrl: string, overrides: Partial<SeleniumGridProviderOptions> = {}) {
  return serveProvider(
    (publicUrl) =>
      new SeleniumGridProvider({
        gridUrl,
        publicUrl,
        instanceId: 'grid-test-instance',
        clock: new SystemClock(),
        chromeArgs: ROOT_CHROME_ARGS,
        minTimeoutSec: 1,
        ...overrides,
      }),
  );
}

/** A create request for the Grid provider (its project and region), `overrides` over them. */
export function gridRequest(overrides: Partial<CreateBrowserRequest> = {}): CreateBrowserRequest {
  return browserRequest({ providerProjectId: 'selenium-grid', region: 'grid', ...overrides });
}

/** The ids of the sessions the Grid runs now (its GraphQL `sessionsInfo`). */
export async function gridSessionIds(gridUrl: string): Promise<string[]> {
  const response = await fetch(new URL('graphql', `${gridUrl.replace(/\/+$/, '')}/`), {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ query: '{ sessionsInfo { sessions { id } } }' }),
  });
  const body = (await response.json()) as { data: { sessionsInfo: { sessions: Array<{ id: string }> } } };
  return body.data.sessionsInfo.sessions.map((s) => s.id);
}

import type { PassthroughEndpoint } from '../../shared/PassthroughEndpoint.ts';
import type { UpgradeEndpoint } from '../../shared/UpgradeEndpoint.ts';
import { checkCdpCommand } from '../cdp/cdpCommandPolicy.ts';
import { connectPathTemplate } from '../cdp/connectUrl.ts';
import type { EndedSessionArchive } from '../cdp/EndedSessionArchive.ts';
import { serveConnectUpgrade } from '../cdp/serveConnectUpgrade.ts';
import { type WebDriverLookup, webdriverEndpoint } from '../webdriver/webdriverEndpoint.ts';
import type { GridBrowserSession } from './GridBrowserSession.ts';
import type { GridClient } from './GridClient.ts';

/**
 * The Grid sessions' endpoints on the API's own server: the signed connect endpoint (an upgrade
 * route of the HTTP adapter's table), proxying CDP to the session's `se:cdp` under the command
 * policy, and the WebDriver endpoint (`seleniumRemoteUrl`): bound to one session, sent on to the
 * Grid's own `/session/{id}/…` with the configured headers (`browsers/webdriver/`).
 */
export function gridEndpoints(deps: {
  name: string;
  live: ReadonlyMap<string, GridBrowserSession>;
  archive: Pick<EndedSessionArchive, 'get'>;
  grid: Pick<GridClient, 'baseUrl' | 'headers'>;
  maxConnectionsPerSession: number;
}): { connect: UpgradeEndpoint; webdriver: PassthroughEndpoint } {
  const { live, archive, grid } = deps;
  const lookup: WebDriverLookup = (id) => {
    const running = live.get(id);
    if (!running) {
      const archived = archive.get(id);
      return archived ? { keyDigest: archived.keyDigest, upstream: null } : null;
    }
    const upstream = {
      baseUrl: grid.baseUrl.toString(),
      headers: grid.headers,
      webdriverSessionId: running.id,
      aliases: [running.browserdeckSessionId],
      capabilities: running.webdriverCapabilities,
      checkCdp: (raw: string) => checkCdpCommand(raw, null),
    };
    // WebDriver commands go once the log recorder records, so the pages they open are recorded.
    const whenRecording = async () => {
      if (!(await running.recorderConnected)) throw new Error('the browser session has ended');
      return upstream;
    };
    return { keyDigest: running.keyDigest, upstream: running.ended ? null : whenRecording };
  };
  return {
    connect: {
      path: connectPathTemplate(deps.name),
      operationId: 'connectSeleniumGridSession',
      summary: 'Connect a CDP client to a Selenium Grid session’s browser (WebSocket)',
      serve: (request) =>
        serveConnectUpgrade(
          request,
          (id) => {
            const running = live.get(id);
            if (running) return { keyDigest: running.keyDigest, running };
            const archived = archive.get(id);
            return archived ? { keyDigest: archived.keyDigest, running: null } : null;
          },
          deps.maxConnectionsPerSession,
        ),
    },
    webdriver: webdriverEndpoint({
      providerName: deps.name,
      operationId: 'driveSeleniumGridSession',
      lookup,
    }),
  };
}

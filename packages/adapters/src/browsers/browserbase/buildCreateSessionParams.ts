import type { Browserbase } from '@browserbasehq/sdk';
import type { CreateBrowserRequest, SessionProxy } from '@browserdeck/domain';
import type { BrowserbaseRegion } from './browserbaseRegions.ts';

/** Browserbase refuses `userMetadata` whose JSON reaches this many characters. */
export const USER_METADATA_MAX_CHARS = 512;

/**
 * The SDK parameters for `POST /v1/sessions`. The SDK names the timeout `api_timeout` and sends it as
 * the wire field `timeout` (seconds). A context is attached with `persist` as the request says (true
 * saves what the browser learns, cookies and storage, back to it). `keepAlive` is sent only when
 * the request names it (Browserbase's own default is false: a session ends when its client
 * disconnects; Browserbase offers true on paid plans only) and a viewport as
 * `browserSettings.viewport`; `record: false` as `browserSettings.recordSession: false`.
 * `userMetadata` carries only our two ids; script and env stay in our database (Browserbase caps
 * metadata at 512 characters and shows it in its dashboard). Proxies go as Browserbase's `proxies`
 * array, entry by entry (`proxyParams`). An extension goes as Browserbase's own id for it
 * (`extension.providerExtensionId`).
 */
export function buildCreateSessionParams(request: CreateBrowserRequest): Browserbase.SessionCreateParams {
  const userMetadata = { browserdeckSessionId: request.sessionId, browserdeckProjectId: request.projectId };
  const params: Browserbase.SessionCreateParams = {
    projectId: request.providerProjectId,
    region: request.region as BrowserbaseRegion,
    api_timeout: request.timeoutSec,
  };
  // Sent only when the request said: Browserbase's plans without keepAlive refuse the field.
  if (request.keepAlive !== null) params.keepAlive = request.keepAlive;
  const browserSettings: Browserbase.SessionCreateParams.BrowserSettings = {};
  if (request.contextId) browserSettings.context = { id: request.contextId, persist: request.contextPersist };
  if (request.viewport)
    browserSettings.viewport = { width: request.viewport.width, height: request.viewport.height };
  // Browserbase records by default: only a switch-off is sent (SPEC §18).
  if (request.record === false) browserSettings.recordSession = false;
  if (Object.keys(browserSettings).length > 0) params.browserSettings = browserSettings;
  // Browserbase loads extensions uploaded to it, by its own id; our stored one carries that id.
  const extensionId = request.extension ? request.extension.providerExtensionId : request.extensionId;
  if (extensionId) params.extensionId = extensionId;
  if (JSON.stringify(userMetadata).length < USER_METADATA_MAX_CHARS) params.userMetadata = userMetadata;
  if (request.proxies?.length) params.proxies = request.proxies.map(proxyParams);
  return params;
}

/** Browserbase's config of one proxy: the entry's own fields, none left undefined (the wire has no such value). */
function proxyParams(
  proxy: SessionProxy,
): NonNullable<Exclude<Browserbase.SessionCreateParams['proxies'], boolean>>[number] {
  const domain = proxy.domainPattern === undefined ? {} : { domainPattern: proxy.domainPattern };
  switch (proxy.type) {
    case 'external':
      return {
        type: 'external',
        server: proxy.server,
        ...(proxy.username === undefined ? {} : { username: proxy.username }),
        ...(proxy.password === undefined ? {} : { password: proxy.password }),
        ...domain,
      };
    case 'none':
      return { type: 'none', ...domain };
    case 'browserbase': {
      const geo = proxy.geolocation;
      return {
        type: 'browserbase',
        ...(geo
          ? {
              geolocation: {
                country: geo.country,
                ...(geo.state === undefined ? {} : { state: geo.state }),
                ...(geo.city === undefined ? {} : { city: geo.city }),
              },
            }
          : {}),
        ...domain,
      };
    }
  }
}

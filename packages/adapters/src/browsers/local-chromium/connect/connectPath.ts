import { buildProviderConnectUrl, connectPathTemplate, providerConnectPath } from '../../cdp/connectUrl.ts';

/** The connect endpoint's path template, as the HTTP route table matches it. */
export const CONNECT_PATH_TEMPLATE = connectPathTemplate('local');

/** The path of a local session's connect endpoint, under the service's public URL. */
export function connectPath(providerSessionId: string): string {
  return providerConnectPath('local', providerSessionId);
}

/** A local session's `connectUrl` (`buildProviderConnectUrl` for the `local` provider). */
export function buildConnectUrl(publicUrl: string, providerSessionId: string, signingKey: string): string {
  return buildProviderConnectUrl(publicUrl, 'local', providerSessionId, signingKey);
}

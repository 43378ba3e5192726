/**
 * The path template of a provider's WebDriver endpoints (`seleniumRemoteUrl`), below which WebDriver
 * clients append their commands (`/session/{id}/url`): the session's signing key is a path segment,
 * because clients build every command's URL from the base and would drop a query.
 */
export function webdriverPathTemplate(providerName: string): string {
  return `/v1/${providerName}/sessions/{provider_session_id}/webdriver/{signing_key}`;
}

/**
 * A session's `seleniumRemoteUrl`: the public URL (an `http:` or `https:` base, its path kept as a
 * prefix), the provider's WebDriver path for the session, and its signing key (the `connectUrl`'s).
 */
export function buildSeleniumRemoteUrl(
  publicUrl: string,
  providerName: string,
  providerSessionId: string,
  signingKey: string,
): string {
  const url = new URL(publicUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname =
    `${prefix}/v1/${encodeURIComponent(providerName)}/sessions/${encodeURIComponent(providerSessionId)}` +
    `/webdriver/${encodeURIComponent(signingKey)}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

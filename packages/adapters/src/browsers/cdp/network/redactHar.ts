import type { HarCookie, HarEntry, HarNameValue } from './Har.ts';

/** Header names whose values are replaced by REDACTED unless sensitive values are asked for. */
export const SENSITIVE_HEADERS: readonly string[] = [
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
];

/** Header names whose values are replaced by REDACTED even when sensitive values are asked for. */
const SECRET_HEADERS: readonly string[] = ['proxy-authorization'];

export const REDACTED = '[redacted]';

/**
 * `entry` as served: unless `sensitive`, the values of SENSITIVE_HEADERS and of cookies are
 * REDACTED; proxy credentials and URL userinfo (`user:password@`) never appear.
 */
export function redacted(entry: HarEntry, sensitive: boolean): HarEntry {
  const { request, response } = entry;
  return {
    ...entry,
    request: {
      ...request,
      url: withoutUserinfo(request.url),
      headers: redactedHeaders(request.headers, sensitive),
      cookies: redactedCookies(request.cookies, sensitive),
    },
    response: {
      ...response,
      redirectURL: withoutUserinfo(response.redirectURL),
      headers: redactedHeaders(response.headers, sensitive),
      cookies: redactedCookies(response.cookies, sensitive),
    },
  };
}

function redactedHeaders(headers: HarNameValue[], sensitive: boolean): HarNameValue[] {
  return headers.map((header) => {
    const name = header.name.toLowerCase();
    if ((sensitive ? SECRET_HEADERS : SENSITIVE_HEADERS).includes(name))
      return { ...header, value: REDACTED };
    return name === 'location' ? { ...header, value: withoutUserinfo(header.value) } : header;
  });
}

function redactedCookies(cookies: HarCookie[], sensitive: boolean): HarCookie[] {
  return sensitive ? cookies : cookies.map((cookie) => ({ ...cookie, value: REDACTED }));
}

/** The URL without its `user:password@` part; anything that is not an absolute URL as it was. */
export function withoutUserinfo(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

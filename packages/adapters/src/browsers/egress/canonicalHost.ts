/**
 * The host as a browser's URL parser reads it (IPv4 shorthands expanded, IPv6 compressed,
 * percent-decoded, lower case), without brackets or final dot; null if it is not a host.
 * CONNECT targets arrive unparsed, so `127.1` must be read here rather than left to DNS.
 */
export function canonicalHost(hostname: string): string | null {
  if (/[/?#@\\\s]/.test(hostname) || (hostname.includes(':') && !/^\[[^\]]*\]$/.test(hostname))) {
    return null;
  }
  try {
    const host = new URL(`http://${hostname}/`).hostname;
    return host.startsWith('[') ? host.slice(1, -1) : host.replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** `localhost` and its subdomains, which mean loopback without DNS (as browsers read them). */
export function isLocalhost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

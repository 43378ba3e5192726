import type { OpenApiDocument } from './OpenApiDocument.ts';

/**
 * The document as served by an app mounted under `mountPrefix` (`''` at the root): its one server is
 * the prefix, a URL relative to where the document is served, which every path is appended to.
 */
export function withMountPrefix(document: OpenApiDocument, mountPrefix: string): OpenApiDocument {
  const [server] = document.servers;
  return { ...document, servers: [{ ...server, url: mountPrefix || '/' }] };
}

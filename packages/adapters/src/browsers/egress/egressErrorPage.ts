/** Headers of the egress proxy's own pages: HTML that is never sniffed or cached. */
export const EGRESS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * A small HTML page the egress proxy answers in place of a page it would not or could not fetch
 * (a refusal, an upstream proxy failure), so the person looking at the browser reads why.
 * `message` is plain text: it is escaped here.
 */
export function egressErrorPage(title: string, message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

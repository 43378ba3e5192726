import { NotImplementedError, SessionEndedError, type SessionLiveView } from '@browserdeck/domain';
import type { LiveViewHub } from '../../../../browsers/live-view/LiveViewHub.ts';
import type { PublicUrls } from '../../kernel/proxy/PublicUrls.ts';
import { liveViewPageUrl } from './liveViewPaths.ts';

/** The live-view URLs of a session, in Browserbase's `SessionLiveURLs` shape (http-api.md §14). */
export interface LiveUrlsBody {
  debuggerUrl: string;
  debuggerFullscreenUrl: string;
  wsUrl: string;
  pages: Array<{
    id: string;
    url: string;
    title: string;
    faviconUrl: string;
    debuggerUrl: string;
    debuggerFullscreenUrl: string;
  }>;
}

/** What turning a live view into URLs needs beyond the request's public URLs: the hub, if any. */
export interface LiveUrlDeps {
  /** Serves Browserdeck's own viewer; absent when no provider capability gives CDP access. */
  hub?: LiveViewHub | undefined;
}

/**
 * The answer of `…/debug`: the provider's own URLs as they are, or links to Browserdeck's viewer
 * carrying the token (`&readOnly=true` when the token is read-only, for the page's sake;
 * `&fullscreen=true` for the full-screen one, `&page=<id>` for a tab) with the
 * tabs the hub sees, and `wsUrl` the session's CDP `connectUrl` (Browserbase's is CDP too). Without a
 * hub there is no viewer: `not_implemented`; a browser the hub cannot reach has ended. The viewer's
 * links are under the request's public URL (`urls`), and `wsUrl` is handed out through it.
 */
export async function presentLiveUrls(
  view: SessionLiveView,
  deps: LiveUrlDeps,
  urls: PublicUrls,
): Promise<LiveUrlsBody> {
  if (view.kind === 'provider') {
    const { debuggerUrl, debuggerFullscreenUrl, wsUrl, pages } = view.urls;
    return { debuggerUrl, debuggerFullscreenUrl, wsUrl, pages: pages.map((page) => ({ ...page })) };
  }
  if (!deps.hub) {
    throw new NotImplementedError(
      'This server has no live view for its provider’s sessions (the provider gives it no CDP access); ' +
        'connect with connectUrl and drive the browser over CDP.',
    );
  }
  const { session, token } = view;
  const pages = await deps.hub.pages(session.providerSessionId);
  if (!pages) throw new SessionEndedError('The session’s browser is no longer running.');
  const pageUrl = liveViewPageUrl(urls.base, session.id, token);
  // The token decides; the flag only tells the page to show a view without input.
  const debuggerUrl = view.readOnly ? `${pageUrl}&readOnly=true` : pageUrl;
  const fullscreen = (url: string) => `${url}&fullscreen=true`;
  return {
    debuggerUrl,
    debuggerFullscreenUrl: fullscreen(debuggerUrl),
    wsUrl: urls.handOut(session.connectUrl),
    pages: pages.map((page) => {
      const pageUrl = `${debuggerUrl}&page=${encodeURIComponent(page.id)}`;
      return {
        id: page.id,
        url: page.url,
        title: page.title,
        faviconUrl: page.faviconUrl,
        debuggerUrl: pageUrl,
        debuggerFullscreenUrl: fullscreen(pageUrl),
      };
    }),
  };
}

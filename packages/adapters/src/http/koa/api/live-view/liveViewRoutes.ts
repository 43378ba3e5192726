import { NotFoundError, type OpenLiveView } from '@browserdeck/domain';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { LiveViewAssets } from './LiveViewAssets.ts';
import { liveViewContentSecurityPolicy } from './liveViewContentSecurityPolicy.ts';
import { LIVE_VIEW_BASE_PATH } from './liveViewPaths.ts';
import { LiveViewPageQuery, liveViewAssetParams, liveViewParams } from './liveViewSchemas.ts';

/** What the live-view page needs. */
export interface LiveViewRouteDeps {
  /** Admits a viewer by its token. */
  openLiveView: Pick<OpenLiveView, 'execute'>;
  /** The configured CORS origins: they may frame the page, besides this origin. */
  corsOrigins: readonly string[];
  /** Where the page and its files come from; the package's own by default. */
  assets?: LiveViewAssets | undefined;
}

const TAG = 'Live view';

/**
 * The live-view page (`GET /v1/live/{session_id}?token=…`) and its static files (http-api.md §14).
 * The token is the credential, not a bearer token: the page is meant to be opened or framed by
 * URL. Left out of the OpenAPI document: they answer HTML and files, not the API's JSON.
 */
export function liveViewRoutes(deps: LiveViewRouteDeps): AnyRoute[] {
  const assets = deps.assets ?? new LiveViewAssets();
  const pageHeaders = {
    'Content-Security-Policy': liveViewContentSecurityPolicy(deps.corsOrigins),
    // The token is in the page's URL: never send it on to anything the page links to or loads.
    'Referrer-Policy': 'no-referrer',
    // Browsers that know `frame-ancestors` ignore this; older ones allow framing by this origin only.
    'X-Frame-Options': 'SAMEORIGIN',
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${LIVE_VIEW_BASE_PATH}/{session_id}`,
      operationId: 'liveViewPage',
      summary: 'The live view of a session (HTML page)',
      tag: TAG,
      auth: 'none',
      undocumented: true,
      params: liveViewParams,
      query: LiveViewPageQuery,
      responses: { 200: { description: 'The viewer page.', contentType: 'text/html' } },
      errors: ['unauthorized', 'not_found', 'session_ended', 'session_on_other_instance'],
      handle: async ({ params, query }) => {
        await deps.openLiveView.execute({
          sessionId: params.session_id,
          token: query.token,
          readOnly: query.readOnly,
        });
        return {
          status: 200,
          body: await assets.page(),
          contentType: 'text/html; charset=utf-8',
          headers: pageHeaders,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${LIVE_VIEW_BASE_PATH}/assets/{file}`,
      operationId: 'liveViewAsset',
      summary: 'A static file of the live-view page',
      tag: TAG,
      auth: 'none',
      undocumented: true,
      params: liveViewAssetParams,
      responses: { 200: { description: 'The file.' } },
      errors: ['not_found'],
      handle: async ({ params }) => {
        const asset = await assets.file(params.file);
        if (!asset) throw new NotFoundError('File');
        return {
          status: 200,
          body: asset.body,
          contentType: asset.contentType,
          headers: { 'Cache-Control': 'public, max-age=3600' },
        };
      },
    }),
  ];
}

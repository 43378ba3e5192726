import { DomainError, type LiveViewGrant, type OpenLiveView } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { LiveViewHub } from '../../../../browsers/live-view/LiveViewHub.ts';
import type { UpgradeOutcome, UpgradeRequest } from '../../../../shared/UpgradeEndpoint.ts';
import type { HttpDatabaseHooks } from '../../HttpAppDeps.ts';
import { refuseUpgrade } from '../../kernel/errors/refuseUpgrade.ts';
import type { LiveViewGrantWatch } from './LiveViewGrantWatch.ts';
import { LIVE_VIEW_SESSION_ID } from './liveViewPaths.ts';
import { LIVE_PAGE_ID } from './liveViewSchemas.ts';

/** What serving live-view WebSockets needs. */
export interface LiveViewUpgradeDeps {
  /** Admits a viewer by its token. */
  openLiveView: Pick<OpenLiveView, 'execute'>;
  /** Serves admitted viewers; without one, every live-view upgrade is refused (501). */
  hub?: LiveViewHub | undefined;
  /** Re-checks admitted viewers' grants and closes those that no longer hold; none: never re-checked. */
  watch?: Pick<LiveViewGrantWatch, 'watch'> | undefined;
  /** The per-request database scope and error translation of the HTTP app. */
  database?: Pick<HttpDatabaseHooks, 'requestScope' | 'translateError'> | undefined;
  logger?: Pick<Logger, 'error'> | undefined;
}

/**
 * Serves an upgrade matched to the live-view WebSocket (`<prefix>/v1/live/{session_id}/ws?token=…
 * [&page=…][&readOnly=true]`, http-api.md §14): true (the socket is then this handler's, answered
 * asynchronously), or `not_found` for a session id that is not one. The token is checked through
 * `OpenLiveView` in the app's database scope; a refusal is answered as a problem (`refuseUpgrade`),
 * an admitted viewer handed to the hub, read-only when its token is (`readOnly=true` narrows a full
 * token, nothing widens a read-only one), with the signal of its grant's watch.
 */
export function serveLiveViewUpgrade(request: UpgradeRequest, deps: LiveViewUpgradeDeps): UpgradeOutcome {
  const sessionId = request.params.session_id ?? '';
  if (!LIVE_VIEW_SESSION_ID.test(sessionId)) return { code: 'not_found', detail: 'No such session.' };
  void admit(request, sessionId.toLowerCase(), deps);
  return true;
}

async function admit(
  { req, socket, head, query, mountPrefix }: UpgradeRequest,
  sessionId: string,
  deps: LiveViewUpgradeDeps,
): Promise<void> {
  const refuse = (error: DomainError) => refuseUpgrade(req, socket, error.code, error.message, mountPrefix);
  try {
    const options = viewerOptions(query);
    const tokens = query.getAll('token');
    const token = tokens.length === 1 ? tokens[0] : undefined;
    let grant: LiveViewGrant | undefined;
    const check = async () => {
      grant = await deps.openLiveView.execute({ sessionId, token, readOnly: options.readOnly });
    };
    await (deps.database?.requestScope ? deps.database.requestScope(check) : check());
    if (!deps.hub) {
      throw new DomainError('not_implemented', 'This server has no live view for its provider’s sessions.');
    }
    // The client may have gone while the token was checked.
    if (socket.destroyed || !grant) return;
    deps.hub.serveViewer(req, socket, head, {
      providerSessionId: grant.session.providerSessionId,
      pageId: options.pageId,
      readOnly: grant.readOnly,
      signal: deps.watch?.watch(grant, socket),
    });
  } catch (error) {
    const known = error instanceof DomainError ? error : deps.database?.translateError?.(error);
    if (known) return refuse(known);
    deps.logger?.error({ err: error, sessionId }, 'live-view upgrade failed');
    refuse(new DomainError('internal', 'The live view could not be opened.'));
  }
}

/** The viewer's `page` and `readOnly`, each given at most once; anything else is `validation_failed`. */
function viewerOptions(query: URLSearchParams): { pageId: string | null; readOnly: boolean } {
  const one = (name: string): string | undefined => {
    const values = query.getAll(name);
    if (values.length > 1) throw invalid(name, 'must be given once');
    return values[0];
  };
  const page = one('page');
  if (page !== undefined && !LIVE_PAGE_ID.test(page)) {
    throw invalid('page', 'must be a page id from the debug answer');
  }
  const readOnly = one('readOnly');
  if (readOnly !== undefined && readOnly !== 'true' && readOnly !== 'false') {
    throw invalid('readOnly', 'must be true or false');
  }
  return { pageId: page ?? null, readOnly: readOnly === 'true' };
}

function invalid(path: string, message: string): DomainError {
  return new DomainError('validation_failed', `${path}: ${message}`, { errors: [{ path, message }] });
}

import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';

/** Props of `LiveView`. */
export interface LiveViewProps {
  projectId: string;
  session: Session;
  active: boolean;
}

/**
 * The session's browser, live: the page at `debuggerFullscreenUrl` of `GET …/debug` in an iframe,
 * with a picker for the session's tabs (`pages`) and a view-only switch (`readOnly=true`).
 */
export function LiveView({ projectId, session, active }: LiveViewProps) {
  const { api } = useConsole();
  const debug = useResource(
    () => (active ? api.sessions.debug(projectId, session.id) : Promise.resolve(undefined)),
    `${session.id}|${active}`,
  );
  const [pageId, setPageId] = useState('');
  // A viewer's live view is always read-only (the server's answer is): the switch is not offered.
  const mayDrive = useProjectAllows('developer');
  const [viewOnly, setReadOnly] = useState(false);
  const readOnly = viewOnly || !mayDrive;
  const [blocked, setBlocked] = useState<string | undefined>(undefined);
  // A live view on another origin than the console's is refused by the page's `frame-src`, and the
  // frame stays empty: say so instead of leaving a blank box.
  useEffect(() => {
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.effectiveDirective === 'frame-src') setBlocked(event.blockedURI);
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    return () => document.removeEventListener('securitypolicyviolation', onViolation);
  }, []);
  const pages = debug.data?.pages ?? [];
  const page = pages.find((p) => p.id === pageId);
  const source = page?.debuggerFullscreenUrl ?? debug.data?.debuggerFullscreenUrl;

  return (
    <section aria-labelledby="live-view" class="panel">
      <div class="section-head">
        <h2 id="live-view">Live view</h2>
        {active ? (
          <button type="button" class="secondary" onClick={() => debug.reload()}>
            Reload tabs
          </button>
        ) : null}
      </div>
      {!active ? (
        <p class="empty">The session has ended: there is no browser to watch.</p>
      ) : (
        <>
          <ProblemAlert error={debug.error} />
          {debug.data ? (
            <div class="live-controls">
              <div class="field field-inline">
                <label for="live-tab">Tab</label>
                <select id="live-tab" value={pageId} onChange={(e) => setPageId(e.currentTarget.value)}>
                  <option value="">Current tab</option>
                  {pages.map((p, i) => (
                    <option key={p.id} value={p.id}>
                      {p.title || p.url || `Tab ${i + 1}`}
                    </option>
                  ))}
                </select>
              </div>
              {mayDrive ? (
                <div class="field field-inline">
                  <input
                    id="live-readonly"
                    type="checkbox"
                    checked={readOnly}
                    onChange={(e) => setReadOnly(e.currentTarget.checked)}
                  />
                  <label for="live-readonly">View only (no mouse or keyboard input)</label>
                </div>
              ) : (
                <p class="meta">View only: a viewer watches without input.</p>
              )}
            </div>
          ) : debug.loading ? (
            <p aria-busy="true">Opening the live view…</p>
          ) : null}
          {blocked ? (
            <p class="notice">
              This console's Content-Security-Policy refused to show the live view from {blocked}: open the
              console on that origin (the server's PUBLIC_URL), or add it to the console's frame sources.
            </p>
          ) : null}
          {source ? (
            <iframe
              class="live-frame"
              title={`Live view of ${session.name}`}
              src={withReadOnly(source, readOnly)}
              allow="clipboard-read; clipboard-write"
            />
          ) : null}
        </>
      )}
    </section>
  );
}

/** The live-view URL with `readOnly=true` added when asked for. */
function withReadOnly(source: string, readOnly: boolean): string {
  if (!readOnly) return source;
  try {
    const url = new URL(source, window.location.href);
    url.searchParams.set('readOnly', 'true');
    return url.toString();
  } catch {
    return source;
  }
}

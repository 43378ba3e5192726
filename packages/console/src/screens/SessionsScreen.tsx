import { useState } from 'preact/hooks';
import { SESSION_STATUSES, type SessionStatus } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { navigate } from '../app/navigation.ts';
import { useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { formatTime } from '../components/formatting.ts';
import { Link } from '../components/Link.tsx';
import { Pager } from '../components/Pager.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { StatusFilter } from '../components/StatusFilter.tsx';
import { StartSessionForm } from './StartSessionForm.tsx';

/** Sessions a page shows. */
export const PAGE_SIZE = 20;
/** How often the list is loaded again while the page is visible. */
export const SESSIONS_POLL_MS = 3000;

/** Props of `SessionsScreen`. */
export interface SessionsScreenProps {
  projectId: string;
  status: SessionStatus | undefined;
  offset: number;
}

/**
 * A project's sessions, newest first: filtered by status, paged by `limit`/`offset`, loaded again
 * every few seconds while visible; and the form that starts one (http-api.md §5).
 */
export function SessionsScreen({ projectId, status, offset }: SessionsScreenProps) {
  const { api } = useConsole();
  const mayCreate = useProjectAllows('developer');
  const [updatedAt, setUpdatedAt] = useState<Date | undefined>(undefined);
  const sessions = useResource(
    async () => {
      const page = await api.sessions.list(projectId, { status, limit: PAGE_SIZE, offset });
      setUpdatedAt(new Date());
      return page;
    },
    `${projectId}|${status ?? ''}|${offset}`,
    SESSIONS_POLL_MS,
  );
  const page = sessions.data;
  const go = (next: { status?: SessionStatus | undefined; offset?: number }) =>
    navigate({
      name: 'sessions',
      projectId,
      status: 'status' in next ? next.status : status,
      offset: next.offset ?? 0,
    });

  return (
    <>
      <h1 tabIndex={-1}>Sessions</h1>
      {mayCreate ? <StartSessionForm projectId={projectId} onStarted={sessions.reload} /> : null}
      <section aria-labelledby="session-list" class="panel">
        <div class="section-head">
          <h2 id="session-list">Session list</h2>
          <StatusFilter
            id="status-filter"
            statuses={SESSION_STATUSES}
            value={status}
            onChange={(next) => go({ status: next })}
          />
        </div>
        <ProblemAlert error={sessions.error} />
        {page ? (
          page.sessions.length === 0 ? (
            <p class="empty">
              {status
                ? `No ${status} sessions.`
                : mayCreate
                  ? 'No sessions yet: start one above.'
                  : 'No sessions yet.'}
            </p>
          ) : (
            <div class="table-wrap">
              <table class="sessions">
                <caption class="visually-hidden">Sessions, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                    <th scope="col">Ended</th>
                    <th scope="col">Region</th>
                  </tr>
                </thead>
                <tbody>
                  {page.sessions.map((session) => (
                    <tr key={session.id}>
                      <td>
                        <Link to={{ name: 'session', projectId, sessionId: session.id }}>{session.name}</Link>
                      </td>
                      <td>
                        <StatusBadge status={session.status} />
                      </td>
                      <td>{formatTime(session.createdAt)}</td>
                      <td>{formatTime(session.endedAt)}</td>
                      <td>{session.region ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : sessions.loading ? (
          <p aria-busy="true">Loading sessions…</p>
        ) : null}
        {page ? (
          <Pager
            noun="sessions"
            total={page.total}
            offset={page.offset}
            shown={page.sessions.length}
            pageSize={PAGE_SIZE}
            onOffset={(next) => go({ offset: next })}
          >
            {updatedAt ? <span class="meta"> · updated {updatedAt.toLocaleTimeString()}</span> : null}
          </Pager>
        ) : null}
      </section>
    </>
  );
}

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Session } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { FieldList } from '../components/FieldList.tsx';
import { formatTime } from '../components/formatting.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { LiveView } from './LiveView.tsx';
import { SessionInspector } from './SessionInspector.tsx';
import { SESSIONS_POLL_MS } from './SessionsScreen.tsx';

/** Whether a session can still change: `PENDING` or `RUNNING`. */
export function isActive(session: Pick<Session, 'status'>): boolean {
  return session.status === 'PENDING' || session.status === 'RUNNING';
}

/** Props of `SessionDetailScreen`. */
export interface SessionDetailScreenProps {
  projectId: string;
  sessionId: string;
}

/**
 * One session: its fields (loaded again every few seconds while it is active), the live view, the
 * inspector (its recording, network and logs on one clock) and the release button (http-api.md §5).
 */
export function SessionDetailScreen({ projectId, sessionId }: SessionDetailScreenProps) {
  const { api, announce } = useConsole();
  const mayRelease = useProjectAllows('developer');
  const [releaseError, setReleaseError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const loaded = useResource(() => api.sessions.get(projectId, sessionId), sessionId, SESSIONS_POLL_MS);
  const session = loaded.data;
  const active = session ? isActive(session) : false;

  const release = async () => {
    setBusy(true);
    setReleaseError(undefined);
    try {
      const answer = await api.sessions.release(projectId, sessionId);
      announce(`Session ${answer.name} released: ${answer.status}.`);
      await loaded.reload();
    } catch (failure) {
      setReleaseError(failure);
      announce('The session was not released.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p class="breadcrumbs">
        <Link to={{ name: 'sessions', projectId, status: undefined, offset: 0 }}>Sessions</Link> /
      </p>
      <ProblemAlert error={loaded.error} />
      {session ? (
        <>
          <div class="section-head">
            <h1 tabIndex={-1}>{session.name}</h1>
            <StatusBadge status={session.status} />
            {mayRelease ? (
              <button type="button" class="danger" disabled={!active || busy} onClick={release}>
                Release
              </button>
            ) : null}
          </div>
          <ProblemAlert error={releaseError} />
          <SessionFields session={session} projectId={projectId} />
          <LiveView projectId={projectId} session={session} active={active} />
          <SessionInspector projectId={projectId} sessionId={sessionId} />
        </>
      ) : loaded.loading ? (
        <p aria-busy="true">Loading the session…</p>
      ) : null}
    </>
  );
}

/** The session's fields as a description list. */
function SessionFields({ session, projectId }: { session: Session; projectId: string }) {
  const rows: Array<[string, ComponentChildren]> = [
    ['Status', session.status],
    ['Session id', <code key="id">{session.id}</code>],
    ['Provider', session.provider],
    ['Provider session id', <code key="psid">{session.providerSessionId}</code>],
    ['Region', session.region ?? '—'],
    ['Created', formatTime(session.createdAt)],
    ['Started', formatTime(session.startedAt)],
    ['Ended', formatTime(session.endedAt)],
    ['Expires', formatTime(session.expiresAt)],
    ['Timeout', `${session.timeoutSec} s`],
    ['Proxy bytes', `${session.proxyBytes} bytes`],
    ['Last synced', formatTime(session.lastSyncedAt)],
    [
      'Agent',
      session.agentId ? (
        <Link key="agent" to={{ name: 'agent', projectId, agentId: session.agentId }}>
          {session.agentId}
        </Link>
      ) : (
        '—'
      ),
    ],
    ['Connect URL', session.connectUrl ? <code key="connect">{session.connectUrl}</code> : '—'],
  ];
  return <FieldList id="session-fields" title="Details" rows={rows} />;
}

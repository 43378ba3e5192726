import { useState } from 'preact/hooks';
import type { LogEntry } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { formatTime } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { describeLogEntry } from './describeLogEntry.ts';
import { atCursor, type InspectorClock } from './inspectorClock.ts';

/** Log entries a page loads. */
const LOG_PAGE = 50;

/** Props of `SessionLogs`. */
export interface SessionLogsProps {
  projectId: string;
  sessionId: string;
  /** The inspector's clock: choosing a line's time seeks the video there; its cursor marks a line. */
  clock?: InspectorClock | undefined;
}

/**
 * A session's logs (CDP events), a page at a time, following `nextCursor`. With the inspector's
 * clock, each line's time seeks the video, and the line the video has reached is marked.
 */
export function SessionLogs({ projectId, sessionId, clock }: SessionLogsProps) {
  const { api } = useConsole();
  const first = useResource(() => api.sessions.logs(projectId, sessionId, undefined, LOG_PAGE), sessionId);
  const [more, setMore] = useState<{ logs: LogEntry[]; nextCursor: string | null } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const logs = [...(first.data?.logs ?? []), ...(more?.logs ?? [])];
  const nextCursor = more ? more.nextCursor : first.data?.nextCursor;
  const current = atCursor(logs, (entry) => entry.timestamp, clock?.cursorMs ?? null);

  const loadMore = async () => {
    if (!nextCursor) return;
    setBusy(true);
    setError(undefined);
    try {
      const page = await api.sessions.logs(projectId, sessionId, nextCursor, LOG_PAGE);
      setMore({ logs: [...(more?.logs ?? []), ...page.logs], nextCursor: page.nextCursor });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="session-logs" class="panel">
      <div class="section-head">
        <h2 id="session-logs">Logs</h2>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            setMore(undefined);
            await first.reload();
          }}
        >
          Reload logs
        </button>
      </div>
      <ProblemAlert error={first.error} />
      {first.data && logs.length === 0 ? <p class="empty">No log entries yet.</p> : null}
      {logs.length > 0 ? (
        <div class="table-wrap">
          <table class="logs">
            <caption class="visually-hidden">Log entries, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Page</th>
                <th scope="col">URL or status</th>
              </tr>
            </thead>
            <tbody>
              {logs.map((entry, i) => (
                <tr
                  key={`${entry.timestamp}-${i}`}
                  class={current === i ? 'at-cursor' : undefined}
                  aria-current={current === i ? 'time' : undefined}
                >
                  <td>
                    {clock ? (
                      <button
                        type="button"
                        class="link"
                        aria-label={`Seek the video to ${formatTime(entry.timestamp)}`}
                        onClick={() => clock.seek(entry.timestamp)}
                      >
                        {formatTime(entry.timestamp)}
                      </button>
                    ) : (
                      formatTime(entry.timestamp)
                    )}
                  </td>
                  <td>
                    <code>{entry.method}</code>
                  </td>
                  <td>
                    <code>{String(entry.pageId)}</code>
                  </td>
                  <td class="wrap">{describeLogEntry(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ProblemAlert error={error} />
      {nextCursor ? (
        <button type="button" class="secondary" disabled={busy} onClick={loadMore}>
          Load more logs
        </button>
      ) : null}
    </section>
  );
}

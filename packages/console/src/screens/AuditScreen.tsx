import { useState } from 'preact/hooks';
import type { AuditEntry } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { formatTime } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';

/** Entries a page loads. */
const AUDIT_PAGE = 50;

/** Who did it, as a line: the user's e-mail, the key's name, or the service. */
export function describeActor(actor: AuditEntry['actor']): string {
  switch (actor.type) {
    case 'user':
      return actor.email ?? actor.id ?? 'a user';
    case 'operator':
      return `${actor.email ?? actor.id ?? 'an operator'} (operator)`;
    case 'apiKey':
      return `API key ${actor.name ?? actor.id ?? ''}`.trim();
    case 'system':
      return 'Browserdeck';
  }
}

/**
 * A project's audit log (docs/teams.md), newest first, a page at a time through `nextCursor`: who
 * did what to which resource, from which address, with the request id to look up in the logs.
 */
export function AuditScreen({ projectId }: { projectId: string }) {
  const { api } = useConsole();
  const first = useResource(() => api.projects.audit(projectId, undefined, AUDIT_PAGE), projectId);
  const [more, setMore] = useState<{ entries: AuditEntry[]; nextCursor: string | null } | undefined>(
    undefined,
  );
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const nextCursor = more ? more.nextCursor : first.data?.nextCursor;

  const loadMore = async () => {
    if (!nextCursor) return;
    setBusy(true);
    setError(undefined);
    try {
      const page = await api.projects.audit(projectId, nextCursor, AUDIT_PAGE);
      setMore({ entries: [...(more?.entries ?? []), ...page.entries], nextCursor: page.nextCursor });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div class="section-head">
        <h1 tabIndex={-1}>Audit log</h1>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            setMore(undefined);
            await first.reload();
          }}
        >
          Reload audit log
        </button>
      </div>
      <ProblemAlert error={first.error} />
      {first.data && entries.length === 0 ? <p class="empty">No entries yet.</p> : null}
      {first.loading && !first.data ? <p aria-busy="true">Loading the audit log…</p> : null}
      {entries.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Audit log, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Address</th>
                <th scope="col">Request id</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatTime(entry.at)}</td>
                  <td class="wrap">{describeActor(entry.actor)}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td class="wrap">
                    {entry.target.type} <code>{entry.target.id}</code>
                  </td>
                  <td>{entry.ip ?? '—'}</td>
                  <td>{entry.requestId ? <code>{entry.requestId}</code> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ProblemAlert error={error} />
      {nextCursor ? (
        <button type="button" class="secondary" disabled={busy} onClick={loadMore}>
          Load older entries
        </button>
      ) : null}
    </>
  );
}

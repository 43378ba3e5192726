import { useState } from 'preact/hooks';
import type { Har, HarEntry } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { atCursor, type InspectorClock } from './inspectorClock.ts';

/** A header as HAR lists it. */
interface Header {
  name: string;
  value: string;
}

/** Props of `SessionNetwork`. */
export interface SessionNetworkProps {
  projectId: string;
  sessionId: string;
  /** The inspector's clock: choosing a request seeks the video there; its cursor marks a row. */
  clock?: InspectorClock | undefined;
}

/**
 * A session's requests from its HAR (SPEC §18): a waterfall of every tab's requests (method, URL,
 * status, start and duration on one time line), a row's headers when it is chosen, and the HAR
 * itself to download. Sensitive header values come redacted, as the server serves them.
 */
export function SessionNetwork({ projectId, sessionId, clock }: SessionNetworkProps) {
  const { api } = useConsole();
  const har = useResource(() => api.sessions.har(projectId, sessionId), sessionId);
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const entries = har.data?.log.entries ?? [];
  const line = timeLine(entries);
  const current = atCursor(entries, (entry) => Date.parse(entry.startedDateTime), clock?.cursorMs ?? null);

  return (
    <section aria-labelledby="session-network" class="panel">
      <div class="section-head">
        <h2 id="session-network">Network</h2>
        <button type="button" class="secondary" onClick={() => har.reload()}>
          Reload network
        </button>
        {har.data ? (
          <button type="button" class="secondary" onClick={() => downloadHar(har.data as Har, sessionId)}>
            Download HAR
          </button>
        ) : null}
      </div>
      <ProblemAlert error={har.error} />
      {har.data && entries.length === 0 ? <p class="empty">No requests yet.</p> : null}
      {entries.length > 0 ? (
        <div class="table-wrap">
          <table class="network">
            <caption class="visually-hidden">Requests of every tab, in the order they started</caption>
            <thead>
              <tr>
                <th scope="col">Method</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">Waterfall</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, i) => {
                const { offsetMs, durationMs } = line.of(entry);
                const status = entry.response.status === 0 ? 'failed' : String(entry.response.status);
                return (
                  <tr
                    key={`${entry.startedDateTime}-${i}`}
                    class={
                      [chosen === i ? 'chosen' : '', current === i ? 'at-cursor' : ''].join(' ').trim() ||
                      undefined
                    }
                    aria-current={current === i ? 'time' : undefined}
                  >
                    <td>
                      <code>{entry.request.method}</code>
                    </td>
                    <td class="wrap">
                      <button
                        type="button"
                        class="link"
                        aria-expanded={chosen === i}
                        onClick={() => {
                          setChosen(chosen === i ? undefined : i);
                          clock?.seek(Date.parse(entry.startedDateTime));
                        }}
                      >
                        {entry.request.url}
                      </button>
                    </td>
                    <td>{status}</td>
                    <td>{`${Math.round(durationMs)} ms`}</td>
                    <td class="waterfall" aria-label={`starts at ${Math.round(offsetMs)} ms`}>
                      <span
                        class="bar"
                        style={{
                          marginLeft: `${(offsetMs / line.spanMs) * 100}%`,
                          width: `${Math.max((durationMs / line.spanMs) * 100, 0.5)}%`,
                        }}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {chosen !== undefined && entries[chosen] ? <RequestHeaders entry={entries[chosen]} /> : null}
    </section>
  );
}

/** The chosen request's headers, as sent and as answered. */
function RequestHeaders({ entry }: { entry: HarEntry }) {
  const sent = headersOf(entry.request);
  const answered = headersOf(entry.response);
  return (
    <section class="network-headers" aria-label={`Headers of ${entry.request.url}`}>
      <h3>Request headers</h3>
      <HeaderList headers={sent} />
      <h3>Response headers</h3>
      <HeaderList headers={answered} />
      {typeof entry.response._error === 'string' ? <p>Failed: {entry.response._error}</p> : null}
    </section>
  );
}

function HeaderList({ headers }: { headers: Header[] }) {
  if (headers.length === 0) return <p class="empty">None.</p>;
  return (
    <dl class="fields">
      {headers.map((header, i) => (
        <div key={`${header.name}-${i}`}>
          <dt>{header.name}</dt>
          <dd>
            <code>{header.value}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The `headers` of a HAR request or response (the schema leaves them loosely typed). */
function headersOf(part: Record<string, unknown>): Header[] {
  return Array.isArray(part.headers) ? (part.headers as Header[]) : [];
}

/** Where each request sits on the session's time line: from the first start to the last end. */
function timeLine(entries: readonly HarEntry[]) {
  const starts = entries.map((entry) => Date.parse(entry.startedDateTime));
  const first = Math.min(...starts);
  const last = Math.max(...entries.map((entry, i) => (starts[i] ?? first) + Math.max(entry.time, 0)));
  const spanMs = Math.max(last - first, 1);
  return {
    spanMs,
    of: (entry: HarEntry) => ({
      offsetMs: Date.parse(entry.startedDateTime) - first,
      durationMs: Math.max(entry.time, 0),
    }),
  };
}

/** Saves the HAR as `<session id>.har` (the browser's own download). */
function downloadHar(har: Har, sessionId: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${sessionId}.har`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

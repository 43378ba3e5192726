import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { RunLogStreamState } from '../api/followRunLogs.ts';
import type { Run } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { appendLogLine, type LogLines, NO_LOG_LINES } from './appendLogLine.ts';

/** Props of `RunLogs`. */
export interface RunLogsProps {
  projectId: string;
  runId: string;
  /** Called with the terminal run when the stream's `end` event arrives. */
  onEnd: (run: Run) => void;
}

const STATE_TEXT: Record<RunLogStreamState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Connection lost: reconnecting…',
  ended: 'The run has ended: these are all its lines.',
  failed: 'The log stream stopped.',
};

/** Whether the element is scrolled to (within a line of) its bottom. */
function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 24;
}

/**
 * A run's logs, streamed live (SSE) from the first line until the run ends, the view kept at the
 * newest line unless the reader scrolled up. The stream closes when the run ends or the screen goes.
 */
export function RunLogs({ projectId, runId, onEnd }: RunLogsProps) {
  const { api } = useConsole();
  const [shown, setShown] = useState<LogLines>(NO_LOG_LINES);
  const [state, setState] = useState<RunLogStreamState>('connecting');
  const [problem, setProblem] = useState<unknown>(undefined);
  const [attempt, setAttempt] = useState(0);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const list = useRef<HTMLDivElement>(null);
  const follow = useRef(true);

  useEffect(() => {
    setShown(NO_LOG_LINES);
    setState('connecting');
    setProblem(undefined);
    const stream = api.runs.followLogs(projectId, runId, {
      onLine: (line) => setShown((current) => appendLogLine(current, line)),
      onEnd: (run) => onEndRef.current(run),
      onState: (next, why) => {
        setState(next);
        setProblem(next === 'failed' ? why : undefined);
      },
    });
    return () => stream.close();
  }, [api, projectId, runId, attempt]);

  useLayoutEffect(() => {
    const element = list.current;
    if (element && follow.current) element.scrollTop = element.scrollHeight;
  }, [shown]);

  return (
    <section aria-labelledby="run-logs" class="panel">
      <div class="section-head">
        <h2 id="run-logs">Logs</h2>
        <p class="meta">{STATE_TEXT[state]}</p>
        {state === 'failed' ? (
          <button type="button" class="secondary" onClick={() => setAttempt((n) => n + 1)}>
            Reconnect
          </button>
        ) : null}
      </div>
      <ProblemAlert error={problem} />
      {shown.dropped > 0 ? (
        <p class="meta">
          {shown.dropped} older lines are not shown here; the API's <code>/logs</code> pages through them all.
        </p>
      ) : null}
      {shown.lines.length === 0 ? (
        <p class="empty">{state === 'ended' ? 'The run wrote no log lines.' : 'No log lines yet.'}</p>
      ) : null}
      <div
        class="run-log"
        role="log"
        aria-label="Run logs"
        hidden={shown.lines.length === 0}
        ref={list}
        onScroll={(e) => {
          follow.current = atBottom(e.currentTarget);
        }}
      >
        <ol>
          {shown.lines.map((line) => (
            <li key={line.seq} class={`log-${line.stream}`}>
              <span class="log-time">{new Date(line.timestamp).toLocaleTimeString()}</span>
              <span class="log-stream">{line.stream}</span>
              <span class="log-message">{line.message}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

import type { ComponentChildren } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import type { Run } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { FieldList } from '../components/FieldList.tsx';
import { formatDurationMs, formatTime } from '../components/formatting.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { RunLogs } from './RunLogs.tsx';
import { isActiveRun } from './runOutcome.ts';

/** How often a run that has not ended is loaded again (its status; the logs stream on their own). */
export const RUN_POLL_MS = 3000;

/** Props of `RunDetailScreen`. */
export interface RunDetailScreenProps {
  projectId: string;
  runId: string;
}

/**
 * One run (http-api.md §11): its fields, its logs streaming live, the Cancel button while it is
 * queued or running, and its result or error once it has ended.
 */
export function RunDetailScreen({ projectId, runId }: RunDetailScreenProps) {
  const { api, announce } = useConsole();
  const mayCancel = useProjectAllows('developer');
  // The terminal run, once the stream's `end` event or the cancel answer has said so: it is final.
  const [ended, setEnded] = useState<Run | undefined>(undefined);
  const [cancelError, setCancelError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const loaded = useResource(
    async () => {
      const answer = await api.runs.get(projectId, runId);
      if (!isActiveRun(answer)) setEnded(answer);
      return answer;
    },
    runId,
    ended ? undefined : RUN_POLL_MS,
  );
  const run = ended ?? loaded.data;
  const active = run ? isActiveRun(run) : false;
  const agent = useResource(
    () => (run?.agentId ? api.agents.get(projectId, run.agentId) : Promise.resolve(undefined)),
    `${projectId}|${run?.agentId ?? ''}`,
  );

  const onEnd = useCallback(
    (terminal: Run) => {
      setEnded(terminal);
      announce(`The run has ended: ${terminal.status}.`);
    },
    [announce],
  );

  const cancel = async () => {
    setBusy(true);
    setCancelError(undefined);
    try {
      const answer = await api.runs.cancel(projectId, runId);
      if (!isActiveRun(answer)) setEnded(answer);
      announce(`Run canceled: ${answer.status}.`);
    } catch (failure) {
      setCancelError(failure);
      announce('The run was not canceled.');
    } finally {
      setBusy(false);
    }
  };

  const agentName = agent.data?.name;
  return (
    <>
      <p class="breadcrumbs">
        <Link to={{ name: 'runs', projectId, agentId: undefined, status: undefined, offset: 0 }}>Runs</Link> /
        {run?.agentId ? (
          <>
            {' '}
            <Link to={{ name: 'runs', projectId, agentId: run.agentId, status: undefined, offset: 0 }}>
              {agentName ?? 'This agent'}
            </Link>{' '}
            /
          </>
        ) : null}
      </p>
      <ProblemAlert error={loaded.error} />
      {run ? (
        <>
          <div class="section-head">
            <h1 tabIndex={-1}>{agentName ? `Run of ${agentName}` : 'Run'}</h1>
            <StatusBadge status={run.status} />
            {mayCancel ? (
              <button type="button" class="danger" disabled={!active || busy} onClick={cancel}>
                Cancel run
              </button>
            ) : null}
          </div>
          <ProblemAlert error={cancelError} />
          <RunOutcome run={run} />
          <RunFields run={run} projectId={projectId} agentName={agentName} />
          <RunLogs projectId={projectId} runId={runId} onEnd={onEnd} />
          <section aria-labelledby="run-input" class="panel">
            <h2 id="run-input">Input</h2>
            {run.input === null || run.input === undefined ? (
              <p class="empty">No input.</p>
            ) : (
              <pre class="json-value">{JSON.stringify(run.input, null, 2)}</pre>
            )}
          </section>
        </>
      ) : loaded.loading ? (
        <p aria-busy="true">Loading the run…</p>
      ) : null}
    </>
  );
}

/** The result of a run that succeeded, the error of one that did not, a note while it has not ended. */
function RunOutcome({ run }: { run: Run }) {
  return (
    <section aria-labelledby="run-outcome" class="panel">
      <h2 id="run-outcome">{run.error ? 'Error' : 'Result'}</h2>
      {run.error ? (
        <div class="alert run-error">
          <p class="alert-title">
            <code>{run.error.code}</code>
          </p>
          <p class="run-error-message">{run.error.message}</p>
        </div>
      ) : run.status === 'SUCCEEDED' ? (
        <pre class="json-value">{JSON.stringify(run.result, null, 2) ?? 'null'}</pre>
      ) : (
        <p class="empty">The result shows here when the run ends.</p>
      )}
    </section>
  );
}

/** The run's fields as a description list. */
function RunFields({
  run,
  projectId,
  agentName,
}: {
  run: Run;
  projectId: string;
  agentName: string | undefined;
}) {
  const rows: Array<[string, ComponentChildren]> = [
    ['Status', run.status],
    ['Run id', <code key="id">{run.id}</code>],
    [
      'Agent',
      run.agentId ? (
        <Link key="agent" to={{ name: 'agent', projectId, agentId: run.agentId }}>
          {agentName ?? run.agentId}
        </Link>
      ) : (
        '—'
      ),
    ],
    [
      'Session',
      run.sessionId ? (
        <Link key="session" to={{ name: 'session', projectId, sessionId: run.sessionId }}>
          {run.sessionId}
        </Link>
      ) : (
        '—'
      ),
    ],
    ['Created', formatTime(run.createdAt)],
    ['Started', formatTime(run.startedAt)],
    ['Ended', formatTime(run.endedAt)],
    ['Duration', formatDurationMs(run.durationMs)],
    ['Timeout', `${run.timeoutSec} s`],
    ['Exit code', run.exitCode === null ? '—' : String(run.exitCode)],
    ['Log size', `${run.logBytes} bytes`],
  ];
  return <FieldList id="run-fields" title="Details" rows={rows} />;
}

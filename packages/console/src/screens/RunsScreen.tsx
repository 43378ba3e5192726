import { RUN_STATUSES, type RunStatus } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { navigate } from '../app/navigation.ts';
import { useResource } from '../app/useResource.ts';
import { formatDurationMs, formatTime } from '../components/formatting.ts';
import { Link } from '../components/Link.tsx';
import { Pager } from '../components/Pager.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { StatusFilter } from '../components/StatusFilter.tsx';
import { RUN_POLL_MS } from './RunDetailScreen.tsx';
import { runOutcome } from './runOutcome.ts';

/** Runs a page shows. */
export const RUNS_PAGE_SIZE = 20;

/** Props of `RunsScreen`. */
export interface RunsScreenProps {
  projectId: string;
  /** Only this agent's runs (its run history), or all of the project's. */
  agentId: string | undefined;
  status: RunStatus | undefined;
  offset: number;
}

/**
 * A project's runs, newest first (http-api.md §11): filtered by agent and status, paged, loaded again
 * every few seconds while visible; each with its status, when it was created, how long it took and
 * what it came to (its result or error), linking to the run.
 */
export function RunsScreen({ projectId, agentId, status, offset }: RunsScreenProps) {
  const { api } = useConsole();
  const runs = useResource(
    () => api.runs.list(projectId, { agentId, status, limit: RUNS_PAGE_SIZE, offset }),
    `${projectId}|${agentId ?? ''}|${status ?? ''}|${offset}`,
    RUN_POLL_MS,
  );
  const agents = useResource(() => api.agents.list(projectId), projectId);
  const agentName = (id: string | null) =>
    id ? (agents.data?.find((agent) => agent.id === id)?.name ?? id) : '—';
  const page = runs.data;
  const go = (next: { agentId?: string | undefined; status?: RunStatus | undefined; offset?: number }) =>
    navigate({
      name: 'runs',
      projectId,
      agentId: 'agentId' in next ? next.agentId : agentId,
      status: 'status' in next ? next.status : status,
      offset: next.offset ?? 0,
    });

  return (
    <>
      <h1 tabIndex={-1}>Runs</h1>
      <section aria-labelledby="run-list" class="panel">
        <div class="section-head">
          <h2 id="run-list">{agentId ? `Run history of ${agentName(agentId)}` : 'Run history'}</h2>
          <div class="filters">
            <div class="field field-inline">
              <label for="run-agent-filter">Agent</label>
              <select
                id="run-agent-filter"
                value={agentId ?? ''}
                onChange={(e) => go({ agentId: e.currentTarget.value || undefined })}
              >
                <option value="">All</option>
                {agentId && !agents.data?.some((agent) => agent.id === agentId) ? (
                  <option value={agentId}>{agentId}</option>
                ) : null}
                {(agents.data ?? []).map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.name}
                  </option>
                ))}
              </select>
            </div>
            <StatusFilter
              id="run-status-filter"
              statuses={RUN_STATUSES}
              value={status}
              onChange={(next) => go({ status: next })}
            />
          </div>
        </div>
        <ProblemAlert error={runs.error} />
        {page ? (
          page.runs.length === 0 ? (
            <p class="empty">{status ? `No ${status} runs.` : 'No runs yet: open an agent and press Run.'}</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Runs, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Created</th>
                    <th scope="col">Agent</th>
                    <th scope="col">Status</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Result or error</th>
                  </tr>
                </thead>
                <tbody>
                  {page.runs.map((run) => (
                    <tr key={run.id}>
                      <td>
                        <Link to={{ name: 'run', projectId, runId: run.id }}>
                          {formatTime(run.createdAt)}
                        </Link>
                      </td>
                      <td>{agentName(run.agentId)}</td>
                      <td>
                        <StatusBadge status={run.status} />
                      </td>
                      <td>{formatDurationMs(run.durationMs)}</td>
                      <td class="wrap">
                        <code>{runOutcome(run)}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : runs.loading ? (
          <p aria-busy="true">Loading runs…</p>
        ) : null}
        {page ? (
          <Pager
            noun="runs"
            total={page.total}
            offset={page.offset}
            shown={page.runs.length}
            pageSize={RUNS_PAGE_SIZE}
            onOffset={(next) => go({ offset: next })}
          ></Pager>
        ) : null}
      </section>
    </>
  );
}

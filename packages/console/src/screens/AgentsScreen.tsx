import { useConsole } from '../app/ConsoleContext.ts';
import { useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { formatTime } from '../components/formatting.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';

/** A project's agents, newest first, with links to edit each and to create one (http-api.md §6). */
export function AgentsScreen({ projectId }: { projectId: string }) {
  const { api } = useConsole();
  const mayCreate = useProjectAllows('developer');
  const agents = useResource(() => api.agents.list(projectId), projectId);
  return (
    <>
      <div class="section-head">
        <h1 tabIndex={-1}>Agents</h1>
        {mayCreate ? (
          <Link class="button" to={{ name: 'agent', projectId, agentId: 'new' }}>
            New agent
          </Link>
        ) : null}
      </div>
      <ProblemAlert error={agents.error} />
      {agents.data ? (
        agents.data.length === 0 ? (
          <p class="empty">No agents yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Agents, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Active</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {agents.data.map((agent) => (
                  <tr key={agent.id}>
                    <td>
                      <Link to={{ name: 'agent', projectId, agentId: agent.id }}>{agent.name}</Link>
                    </td>
                    <td class="wrap">{agent.description || '—'}</td>
                    <td>{agent.active ? 'yes' : 'no'}</td>
                    <td>{formatTime(agent.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : agents.loading ? (
        <p aria-busy="true">Loading agents…</p>
      ) : null}
    </>
  );
}

import type { ComponentChildren } from 'preact';
import type { Project } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { PROJECT_TABS, type ProjectTab, type Route } from '../app/routes.ts';
import { useResource } from '../app/useResource.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';

const TAB_LABEL: Record<ProjectTab, string> = {
  sessions: 'Sessions',
  stats: 'Stats',
  agents: 'Agents',
  runs: 'Runs',
  apiKeys: 'API keys',
};

/** Props of `ProjectFrame`. */
export interface ProjectFrameProps {
  projectId: string;
  tab: ProjectTab;
  children: (project: Project) => ComponentChildren;
}

/** A project's screens: its name, the project navigation (sessions, stats, agents, runs, API keys), the tab. */
export function ProjectFrame({ projectId, tab, children }: ProjectFrameProps) {
  const { api } = useConsole();
  const project = useResource(() => api.projects.get(projectId), projectId);
  const routeOf = (t: ProjectTab): Route =>
    t === 'sessions'
      ? { name: 'sessions', projectId, status: undefined, offset: 0 }
      : t === 'runs'
        ? { name: 'runs', projectId, agentId: undefined, status: undefined, offset: 0 }
        : { name: t, projectId };
  return (
    <>
      <p class="breadcrumbs">
        <Link to={{ name: 'projects' }}>Projects</Link> /
      </p>
      <ProblemAlert error={project.error} />
      {project.data ? (
        <>
          <p class="project-name">
            {project.data.name}
            {project.data.archived ? <span class="badge">archived</span> : null}
          </p>
          <nav aria-label="Project" class="tabs">
            {PROJECT_TABS.map((t) => (
              <Link key={t} to={routeOf(t)} aria-current={t === tab ? 'page' : undefined}>
                {TAB_LABEL[t]}
              </Link>
            ))}
          </nav>
          {children(project.data)}
        </>
      ) : project.loading ? (
        <p aria-busy="true">Loading the project…</p>
      ) : null}
    </>
  );
}

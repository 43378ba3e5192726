import type { ComponentChildren } from 'preact';
import type { Project, ProjectListItem, ProjectRole } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { ProjectContext } from '../app/ProjectContext.ts';
import { roleAllows } from '../app/roles.ts';
import { PROJECT_TABS, type ProjectTab, type Route } from '../app/routes.ts';
import { useResource } from '../app/useResource.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { VisuallyHidden } from '../components/VisuallyHidden.tsx';

const TAB_LABEL: Record<ProjectTab, string> = {
  sessions: 'Sessions',
  stats: 'Stats',
  agents: 'Agents',
  runs: 'Runs',
  apiKeys: 'API keys',
  members: 'Members',
  audit: 'Audit log',
};

/** The least role that sees each tab (the others are refused by the server below `admin`). */
const TAB_ROLE: Record<ProjectTab, ProjectRole> = {
  sessions: 'viewer',
  stats: 'viewer',
  agents: 'viewer',
  runs: 'viewer',
  apiKeys: 'admin',
  members: 'viewer',
  audit: 'admin',
};

/** Props of `ProjectFrame`. */
export interface ProjectFrameProps {
  projectId: string;
  tab: ProjectTab;
  children: (project: ProjectListItem) => ComponentChildren;
}

/**
 * The project with the caller's role: `GET /v1/projects/{id}` carries no role, so it is taken from
 * the caller's list of projects (active or archived, as the project is).
 */
async function projectWithRole(
  get: () => Promise<Project>,
  list: (archived: boolean) => Promise<ProjectListItem[]>,
  projectId: string,
): Promise<ProjectListItem> {
  const project = await get();
  const listed = (await list(project.archived)).find((item) => item.id === projectId);
  // Not listed (archived or changed between the two calls): the least role, so nothing is offered
  // that the server would refuse.
  return listed ?? { ...project, role: 'viewer' };
}

/**
 * A project's screens: its name and the caller's role, the project navigation (the tabs the role
 * may use), the tab; the project and role are given to the screens through `ProjectContext`.
 */
export function ProjectFrame({ projectId, tab, children }: ProjectFrameProps) {
  const { api } = useConsole();
  const project = useResource(
    () =>
      projectWithRole(
        () => api.projects.get(projectId),
        (archived) => api.projects.list(archived),
        projectId,
      ),
    projectId,
  );
  const routeOf = (t: ProjectTab): Route =>
    t === 'sessions'
      ? { name: 'sessions', projectId, status: undefined, offset: 0 }
      : t === 'runs'
        ? { name: 'runs', projectId, agentId: undefined, status: undefined, offset: 0 }
        : { name: t, projectId };
  const role = project.data?.role;
  return (
    <>
      <p class="breadcrumbs">
        <Link to={{ name: 'projects' }}>Projects</Link> /
      </p>
      <ProblemAlert error={project.error} />
      {project.data ? (
        <ProjectContext.Provider value={{ project: project.data, reload: project.reload }}>
          <p class="project-name">
            {project.data.name}
            {project.data.archived ? <span class="badge">archived</span> : null}
            <span class="badge">
              <VisuallyHidden>Your role: </VisuallyHidden>
              {role}
            </span>
          </p>
          <nav aria-label="Project" class="tabs">
            {PROJECT_TABS.filter((t) => t === tab || roleAllows(role, TAB_ROLE[t])).map((t) => (
              <Link key={t} to={routeOf(t)} aria-current={t === tab ? 'page' : undefined}>
                {TAB_LABEL[t]}
              </Link>
            ))}
          </nav>
          {roleAllows(role, TAB_ROLE[tab]) ? (
            children(project.data)
          ) : (
            <>
              <h1 tabIndex={-1}>{TAB_LABEL[tab]}</h1>
              <p class="notice">
                Only an admin or the owner of this project sees this page; your role here is {role}.
              </p>
            </>
          )}
        </ProjectContext.Provider>
      ) : project.loading ? (
        <p aria-busy="true">Loading the project…</p>
      ) : null}
    </>
  );
}

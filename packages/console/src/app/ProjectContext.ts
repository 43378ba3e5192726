import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ProjectListItem, ProjectRole } from '../api/types.ts';
import { roleAllows } from './roles.ts';

/** The project a screen is in, with the signed-in user's role there; provided by `ProjectFrame`. */
export interface ProjectState {
  project: ProjectListItem;
  /** Loads the project and the role again (after a transfer changed it). */
  reload: () => Promise<void>;
}

/** The current project; provided by `ProjectFrame`. */
export const ProjectContext = createContext<ProjectState | undefined>(undefined);

/** The current project, if inside one. */
export function useProject(): ProjectState | undefined {
  return useContext(ProjectContext);
}

/**
 * Whether the signed-in user's role in the current project allows what needs `least` (docs/teams.md):
 * screens hide the controls the server would refuse. Outside a project: false.
 */
export function useProjectAllows(least: ProjectRole): boolean {
  return roleAllows(useContext(ProjectContext)?.project.role, least);
}

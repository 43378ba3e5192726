import { authorizeProject } from '../access/authorizeProject.ts';
import type { Caller } from '../access/Caller.ts';
import { seesSecrets } from '../access/secretMasking.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';

/** The project's agents, newest first; only the active ones when asked; a viewer reads them masked. */
export class ListAgents {
  private readonly deps: { projects: ProjectRepository; agents: AgentRepository };

  constructor(deps: { projects: ProjectRepository; agents: AgentRepository }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    activeOnly?: boolean | undefined;
  }): Promise<Agent[]> {
    const { project, role } = await authorizeProject(
      this.deps.projects,
      input.caller,
      input.projectId,
      'viewer',
    );
    const agents = await this.deps.agents.list(project.id, { activeOnly: input.activeOnly ?? false });
    return seesSecrets(role) ? agents : agents.map((agent) => agent.masked());
  }
}

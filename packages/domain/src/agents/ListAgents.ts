import type { Caller } from '../access/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';

/** The project's agents, newest first; only the active ones when asked. */
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
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    return this.deps.agents.list(project.id, { activeOnly: input.activeOnly ?? false });
  }
}

import type { Caller } from '../access/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../access/projectForWork.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { AgentRepository } from './AgentRepository.ts';

/** Deletes an agent; sessions that ran it keep their `agentId`. */
export class DeleteAgent {
  private readonly deps: { projects: ProjectRepository; agents: AgentRepository };

  constructor(deps: { projects: ProjectRepository; agents: AgentRepository }) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; agentId: string }): Promise<void> {
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'developer', false);
    if (!(await this.deps.agents.delete(project.id, input.agentId))) throw new NotFoundError('Agent');
  }
}

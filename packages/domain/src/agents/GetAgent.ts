import type { Caller } from '../access/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';
import { findAgent } from './findAgent.ts';

/** One agent of one of the owner's projects. */
export class GetAgent {
  private readonly deps: { projects: ProjectRepository; agents: AgentRepository };

  constructor(deps: { projects: ProjectRepository; agents: AgentRepository }) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; agentId: string }): Promise<Agent> {
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    return findAgent(this.deps.agents, project.id, input.agentId);
  }
}

import { authorizeProject } from '../access/authorizeProject.ts';
import type { Caller } from '../access/Caller.ts';
import { seesSecrets } from '../access/secretMasking.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';
import { findAgent } from './findAgent.ts';

/** One agent of one of the caller's projects; a viewer reads its `envVars` masked. */
export class GetAgent {
  private readonly deps: { projects: ProjectRepository; agents: AgentRepository };

  constructor(deps: { projects: ProjectRepository; agents: AgentRepository }) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; agentId: string }): Promise<Agent> {
    const { project, role } = await authorizeProject(
      this.deps.projects,
      input.caller,
      input.projectId,
      'viewer',
    );
    const agent = await findAgent(this.deps.agents, project.id, input.agentId);
    return seesSecrets(role) ? agent : agent.masked();
  }
}

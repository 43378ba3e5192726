import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { AgentRepository } from './AgentRepository.ts';

/** Deletes an agent; sessions that ran it keep their `agentId`. */
export class DeleteAgent {
  private readonly deps: { projects: ProjectRepository; agents: AgentRepository; audit: AuditTrail };

  constructor(deps: { projects: ProjectRepository; agents: AgentRepository; audit: AuditTrail }) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; agentId: string }): Promise<void> {
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      false,
    );
    const change = {
      projectId: project.id,
      action: 'agent.delete',
      target: { type: 'agent', id: input.agentId },
    } as const;
    // Refused inside the transaction, so a delete of nothing leaves no entry.
    await this.deps.audit.record(input.caller, change, async () => {
      if (!(await this.deps.agents.delete(project.id, input.agentId))) throw new NotFoundError('Agent');
    });
  }
}

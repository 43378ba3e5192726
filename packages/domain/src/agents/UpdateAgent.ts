import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { ValidationError } from '../shared/DomainError.ts';
import type { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';
import { checkAgentFields } from './agentRules.ts';
import { findAgent } from './findAgent.ts';
import { type AgentInput, mergeAgentFields } from './resolveAgentInput.ts';

export interface UpdateAgentDeps {
  projects: ProjectRepository;
  agents: AgentRepository;
  provider: Pick<BrowserProvider, 'regions'>;
  clock: Clock;
  audit: AuditTrail;
}

/** Changes the fields given (a partial update); refused in an archived project. */
export class UpdateAgent {
  private readonly deps: UpdateAgentDeps;

  constructor(deps: UpdateAgentDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    agentId: string;
    changes: AgentInput;
  }): Promise<Agent> {
    if (!Object.values(input.changes).some((v) => v !== undefined)) {
      throw new ValidationError([{ path: '', message: 'give at least one field to change' }]);
    }
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    const agent = await findAgent(this.deps.agents, project.id, input.agentId);
    const fields = mergeAgentFields(agent.fields, input.changes);
    checkAgentFields(fields, this.deps.provider.regions);
    agent.revise(fields, this.deps.clock.now());
    const change = {
      projectId: project.id,
      action: 'agent.update',
      target: { type: 'agent', id: agent.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => this.deps.agents.update(agent));
    return agent;
  }
}

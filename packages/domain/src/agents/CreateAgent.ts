import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';
import { checkAgentFields } from './agentRules.ts';
import { type AgentInput, agentFieldsForCreate } from './resolveAgentInput.ts';

export interface CreateAgentDeps {
  projects: ProjectRepository;
  agents: AgentRepository;
  provider: Pick<BrowserProvider, 'regions'>;
  ids: IdGenerator;
  clock: Clock;
  audit: AuditTrail;
}

/** Stores a new agent in an active project. */
export class CreateAgent {
  private readonly deps: CreateAgentDeps;

  constructor(deps: CreateAgentDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    agent: AgentInput & { name: string };
  }): Promise<Agent> {
    const { regions } = this.deps.provider;
    const fields = agentFieldsForCreate(input.agent, regions[0] ?? '');
    checkAgentFields(fields, regions);
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    const agent = Agent.create({
      id: this.deps.ids.next(),
      projectId: project.id,
      fields,
      now: this.deps.clock.now(),
    });
    const change = {
      projectId: project.id,
      action: 'agent.create',
      target: { type: 'agent', id: agent.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => this.deps.agents.add(agent));
    return agent;
  }
}

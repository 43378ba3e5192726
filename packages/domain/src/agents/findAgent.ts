import { NotFoundError } from '../shared/DomainError.ts';
import type { Agent } from './Agent.ts';
import type { AgentRepository } from './AgentRepository.ts';

/** The project's agent, or `not_found`. */
export async function findAgent(agents: AgentRepository, projectId: string, agentId: string): Promise<Agent> {
  const agent = await agents.findInProject(projectId, agentId);
  if (!agent) throw new NotFoundError('Agent');
  return agent;
}

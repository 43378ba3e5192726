import type { Agent } from './Agent.ts';

/** Where agents are kept. Reads are scoped by project. */
export interface AgentRepository {
  /** Throws `ConflictError('agent_name_taken')` when the project has an agent of that name. */
  add(agent: Agent): Promise<void>;
  /** Throws `ConflictError('agent_name_taken')` on a rename onto another agent's name. */
  update(agent: Agent): Promise<void>;
  findInProject(projectId: string, agentId: string): Promise<Agent | null>;
  /** Newest first. */
  list(projectId: string, filter: { activeOnly: boolean }): Promise<Agent[]>;
  /** False when there was none. Sessions that ran the agent keep their `agentId`. */
  delete(projectId: string, agentId: string): Promise<boolean>;
}

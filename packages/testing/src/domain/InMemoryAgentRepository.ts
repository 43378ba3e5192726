import type { Agent, AgentRepository } from '@browserdeck/domain';
import { ConflictError } from '@browserdeck/domain';
import { cloneEntity } from './cloneEntity.ts';

/** Agents in a Map; stores copies. */
export class InMemoryAgentRepository implements AgentRepository {
  private readonly agents = new Map<string, Agent>();

  async add(agent: Agent): Promise<void> {
    this.assertNameFree(agent);
    this.agents.set(agent.id, cloneEntity(agent));
  }

  async update(agent: Agent): Promise<void> {
    if (!this.agents.has(agent.id)) return;
    this.assertNameFree(agent);
    this.agents.set(agent.id, cloneEntity(agent));
  }

  async findInProject(projectId: string, agentId: string): Promise<Agent | null> {
    const agent = this.agents.get(agentId);
    return agent && agent.projectId === projectId ? cloneEntity(agent) : null;
  }

  async list(projectId: string, filter: { activeOnly: boolean }): Promise<Agent[]> {
    return [...this.agents.values()]
      .filter((a) => a.projectId === projectId && (!filter.activeOnly || a.active))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map(cloneEntity);
  }

  async delete(projectId: string, agentId: string): Promise<boolean> {
    if (!(await this.findInProject(projectId, agentId))) return false;
    return this.agents.delete(agentId);
  }

  /** Forgets the agents of a deleted project (the database cascades). */
  deleteProject(projectId: string): void {
    for (const [id, agent] of this.agents) if (agent.projectId === projectId) this.agents.delete(id);
  }

  private assertNameFree(agent: Agent): void {
    for (const other of this.agents.values()) {
      if (other.projectId === agent.projectId && other.name === agent.name && other.id !== agent.id) {
        throw new ConflictError(
          'agent_name_taken',
          `The project already has an agent named "${agent.name}".`,
        );
      }
    }
  }
}

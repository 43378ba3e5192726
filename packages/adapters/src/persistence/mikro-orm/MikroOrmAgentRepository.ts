import { type Agent, type AgentRepository, ConflictError } from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import { toAgent, toAgentRow } from './agentRows.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { AgentSchema } from './entities/AgentSchema.ts';

/** What `MikroOrmAgentRepository` needs. */
export interface MikroOrmAgentRepositoryDeps {
  orm: BrowserdeckOrm;
  /** Seals each agent's `envVars` at rest. */
  secrets: SecretBox;
}

/**
 * `AgentRepository` on MikroORM (SQLite, PostgreSQL). Every call works on its own fork with
 * explicit statements; names are unique per project by a unique constraint; `envVars` is stored
 * sealed by `secrets`.
 */
export class MikroOrmAgentRepository implements AgentRepository {
  private readonly deps: MikroOrmAgentRepositoryDeps;

  constructor(deps: MikroOrmAgentRepositoryDeps) {
    this.deps = deps;
  }

  async add(agent: Agent): Promise<void> {
    const row = toAgentRow(agent, this.deps.secrets);
    await withDatabaseErrors(async () => {
      try {
        await this.em().insert(AgentSchema, row);
      } catch (error) {
        throw nameTaken(error, agent.name) ?? error;
      }
    });
  }

  async update(agent: Agent): Promise<void> {
    if (!isUuid(agent.id) || !isUuid(agent.projectId)) return;
    const { id, projectId, createdAt, ...changes } = toAgentRow(agent, this.deps.secrets);
    await withDatabaseErrors(async () => {
      try {
        await this.em().nativeUpdate(AgentSchema, { id, projectId }, changes);
      } catch (error) {
        throw nameTaken(error, agent.name) ?? error;
      }
    });
  }

  async findInProject(projectId: string, agentId: string): Promise<Agent | null> {
    if (!isUuid(projectId) || !isUuid(agentId)) return null;
    const row = await withDatabaseErrors(() => this.em().findOne(AgentSchema, { id: agentId, projectId }));
    return row && toAgent(row, this.deps.secrets);
  }

  async list(projectId: string, filter: { activeOnly: boolean }): Promise<Agent[]> {
    if (!isUuid(projectId)) return [];
    const where = filter.activeOnly ? { projectId, active: true } : { projectId };
    const rows = await withDatabaseErrors(() =>
      this.em().find(AgentSchema, where, { orderBy: { createdAt: 'desc', id: 'desc' } }),
    );
    return rows.map((row) => toAgent(row, this.deps.secrets));
  }

  async delete(projectId: string, agentId: string): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(agentId)) return false;
    // No foreign key from browser_sessions.agent_id: the sessions that ran the agent keep its id.
    const deleted = await withDatabaseErrors(() =>
      this.em().nativeDelete(AgentSchema, { id: agentId, projectId }),
    );
    return deleted > 0;
  }

  private em() {
    return this.deps.orm.em.fork();
  }
}

function nameTaken(error: unknown, name: string): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'agents_project_id_name_unique', column: 'agents.name' })
    ? new ConflictError('agent_name_taken', `The project already has an agent named "${name}".`)
    : undefined;
}

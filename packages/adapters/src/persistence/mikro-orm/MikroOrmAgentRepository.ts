import { type Agent, type AgentRepository, ConflictError } from '@browserdeck/domain';
import type { Insertable, Updateable } from 'kysely';
import type { SecretBox } from '../secrets/SecretBox.ts';
import { toAgent, toAgentRow } from './agentRows.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { AgentSchema } from './entities/AgentSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';

/** What `MikroOrmAgentRepository` needs. */
export interface MikroOrmAgentRepositoryDeps {
  orm: BrowserdeckOrm;
  /** Seals each agent's `envVars` at rest. */
  secrets: SecretBox;
}

/**
 * `AgentRepository` on MikroORM (SQLite, PostgreSQL), through its Kysely integration
 * (`KyselyQueries`), one statement per call; names are unique per project by a unique constraint;
 * `envVars` is stored sealed by `secrets`.
 */
export class MikroOrmAgentRepository implements AgentRepository {
  private readonly queries: KyselyQueries;
  private readonly secrets: SecretBox;

  constructor(deps: MikroOrmAgentRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
    this.secrets = deps.secrets;
  }

  async add(agent: Agent): Promise<void> {
    const row = this.queries.columns(AgentSchema, toAgentRow(agent, this.secrets));
    const { db } = this.queries;
    await withDatabaseErrors(async () => {
      try {
        await this.queries.run(db.insertInto('agents').values(row as Insertable<BrowserdeckDb['agents']>));
      } catch (error) {
        throw nameTaken(error, agent.name) ?? error;
      }
    });
  }

  async update(agent: Agent): Promise<void> {
    if (!isUuid(agent.id) || !isUuid(agent.projectId)) return;
    const { id, projectId, createdAt, ...written } = toAgentRow(agent, this.secrets);
    const changes = this.queries.columns(AgentSchema, written) as Updateable<BrowserdeckDb['agents']>;
    const { db } = this.queries;
    await withDatabaseErrors(async () => {
      try {
        await this.queries.run(
          db.updateTable('agents').set(changes).where('id', '=', id).where('project_id', '=', projectId),
        );
      } catch (error) {
        throw nameTaken(error, agent.name) ?? error;
      }
    });
  }

  async findInProject(projectId: string, agentId: string): Promise<Agent | null> {
    if (!isUuid(projectId) || !isUuid(agentId)) return null;
    const { db } = this.queries;
    const [agent] = await this.read(
      db.selectFrom('agents').selectAll().where('id', '=', agentId).where('project_id', '=', projectId),
    );
    return agent ?? null;
  }

  async list(projectId: string, filter: { activeOnly: boolean }): Promise<Agent[]> {
    if (!isUuid(projectId)) return [];
    const { db } = this.queries;
    return this.read(
      db
        .selectFrom('agents')
        .selectAll()
        .where('project_id', '=', projectId)
        .$if(filter.activeOnly, (q) => q.where('active', '=', true))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    );
  }

  async delete(projectId: string, agentId: string): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(agentId)) return false;
    const { db } = this.queries;
    // No foreign key from browser_sessions.agent_id: the sessions that ran the agent keep its id.
    const deleted = await withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('agents').where('id', '=', agentId).where('project_id', '=', projectId)),
    );
    return deleted > 0;
  }

  private async read(query: Query): Promise<Agent[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(AgentSchema, query));
    return rows.map((row) => toAgent(row, this.secrets));
  }
}

function nameTaken(error: unknown, name: string): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'agents_project_id_name_unique', column: 'agents.name' })
    ? new ConflictError('agent_name_taken', `The project already has an agent named "${name}".`)
    : undefined;
}

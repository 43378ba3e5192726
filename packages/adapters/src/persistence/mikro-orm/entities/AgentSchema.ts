import { Agent } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/**
 * An `agents` row as MikroORM sees it: the domain `Agent`'s fields with `envVars` sealed (a
 * `SecretBox` string holding the JSON object). The repository turns it into a plain `Agent`.
 */
export type StoredAgent = Omit<Agent, 'envVars' | 'fields' | 'revise' | 'masked'> & { envVars: string };

/** The columns of `agents`, each named once: the Kysely queries are typed from them too. */
const agentProperties = {
  id: p.uuid().primary(),
  projectId: () =>
    p.manyToOne(ProjectSchema).mapToPk().fieldName('project_id').deleteRule('cascade').index(false),
  name: p.text(),
  description: p.text(),
  script: p.text(),
  envVars: p.text(),
  providerProjectId: p.text().nullable(),
  contextId: p.text().nullable(),
  extensionId: p.text().nullable(),
  region: p.text(),
  timeoutSec: p.integer(),
  active: p.boolean(),
  metadata: p.json<Record<string, unknown>>(),
  createdAt: p.datetime(3),
  updatedAt: p.datetime(3),
};

/** Maps the domain `Agent` onto `agents`; `projectId` is a foreign key with `on delete cascade`. */
export const AgentSchema = defineEntity<StoredAgent, typeof agentProperties>({
  class: Agent as unknown as EntityCtor<StoredAgent>,
  tableName: 'agents',
  properties: agentProperties,
  uniques: [{ name: 'agents_project_id_name_unique', properties: ['projectId', 'name'] }],
  // Listing is `where project_id = ? [and active] order by created_at desc, id desc` (backward scan).
  indexes: [{ name: 'agents_project_id_created_at_index', properties: ['projectId', 'createdAt', 'id'] }],
});

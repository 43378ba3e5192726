import { Agent } from '@browserdeck/domain';
import type { EntityData } from '@mikro-orm/core';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { StoredAgent } from './entities/AgentSchema.ts';
import { openSecretRecord, sealSecretRecord } from './secretRecords.ts';
import { storedJson } from './storedJson.ts';

/** The row for `agent`, `envVars` sealed. */
export function toAgentRow(agent: Agent, secrets: SecretBox): StoredAgent {
  return {
    id: agent.id,
    projectId: agent.projectId,
    name: agent.name,
    description: agent.description,
    script: agent.script,
    envVars: sealSecretRecord(secrets, agent.envVars),
    providerProjectId: agent.providerProjectId,
    contextId: agent.contextId,
    extensionId: agent.extensionId,
    region: agent.region,
    timeoutSec: agent.timeoutSec,
    active: agent.active,
    metadata: agent.metadata,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}

/** The `Agent` (`Agent.restore`) a loaded row holds (MikroORM's result mapper), `envVars` opened. */
export function toAgent(data: EntityData<StoredAgent>, secrets: SecretBox): Agent {
  const row = data as StoredAgent;
  return Agent.restore({
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    script: row.script,
    envVars: openSecretRecord(secrets, row.envVars),
    providerProjectId: row.providerProjectId ?? null,
    contextId: row.contextId ?? null,
    extensionId: row.extensionId ?? null,
    region: row.region,
    timeoutSec: Number(row.timeoutSec),
    active: row.active,
    metadata: storedJson(row.metadata) as Record<string, unknown>,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}

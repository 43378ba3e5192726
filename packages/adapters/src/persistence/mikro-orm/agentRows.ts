import { Agent } from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { StoredAgent } from './entities/AgentSchema.ts';
import { openSecretRecord, sealSecretRecord } from './secretRecords.ts';

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

/** The `Agent` (`Agent.restore`) a loaded row holds, `envVars` opened. */
export function toAgent(row: StoredAgent, secrets: SecretBox): Agent {
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
    timeoutSec: row.timeoutSec,
    active: row.active,
    metadata: row.metadata,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}

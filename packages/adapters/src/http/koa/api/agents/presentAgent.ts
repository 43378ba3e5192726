import type { Agent } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { AgentSchema } from './agentSchemas.ts';

/** The JSON of an agent (http-api.md §6). */
export type AgentJson = z.output<typeof AgentSchema>;

/** An agent as the API shows it: camelCase, ISO 8601 UTC timestamps with milliseconds. */
export function presentAgent(agent: Agent): AgentJson {
  return {
    id: agent.id,
    projectId: agent.projectId,
    name: agent.name,
    description: agent.description,
    script: agent.script,
    envVars: { ...agent.envVars },
    providerProjectId: agent.providerProjectId,
    contextId: agent.contextId,
    extensionId: agent.extensionId,
    region: agent.region,
    timeoutSec: agent.timeoutSec,
    active: agent.active,
    metadata: { ...agent.metadata },
    createdAt: isoTimestamp(agent.createdAt),
    updatedAt: isoTimestamp(agent.updatedAt),
  };
}

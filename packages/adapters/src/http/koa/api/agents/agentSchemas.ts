import {
  AGENT_DESCRIPTION_MAX_LENGTH,
  AGENT_METADATA_MAX_BYTES,
  AGENT_NAME_MAX_LENGTH,
  jsonByteLength,
} from '@browserdeck/domain';
import { z } from 'zod';
import {
  jsonTextRule,
  providerProjectParams,
  queryBoolean,
  textRule,
  timestamp,
  uuidParam,
} from '../shared/commonSchemas.ts';
import {
  envField,
  providerProjectIdField,
  providerRefField,
  regionField,
  scriptField,
  timeoutSecField,
} from '../shared/runSettingsSchemas.ts';

/** `/v1/{provider}/projects/{project_id}/agents/{agent_id}` */
export const agentParams = providerProjectParams.extend({ agent_id: uuidParam });

/** Every settable agent field, all optional (the update body; create requires `name`). */
const agentFields = {
  name: z
    .string('must be a string')
    .trim()
    .min(1, 'must not be empty')
    .max(AGENT_NAME_MAX_LENGTH, `must be at most ${AGENT_NAME_MAX_LENGTH} characters`)
    .check(textRule('name'))
    .meta({ description: 'Unique within the project; trimmed; no control characters.' }),
  description: z
    .string('must be a string')
    .max(AGENT_DESCRIPTION_MAX_LENGTH, `must be at most ${AGENT_DESCRIPTION_MAX_LENGTH} characters`)
    .check(textRule('text'))
    .optional()
    .meta({ description: 'Default "". Tabs and line breaks allowed, no other control characters.' }),
  script: scriptField.optional(),
  envVars: envField.optional(),
  providerProjectId: providerProjectIdField
    .nullable()
    .optional()
    .meta({ description: 'Provider project for its sessions; null uses the configured default.' }),
  contextId: providerRefField.optional(),
  extensionId: providerRefField.optional(),
  region: regionField.optional(),
  timeoutSec: timeoutSecField.optional(),
  active: z
    .boolean('must be true or false')
    .optional()
    .meta({ description: 'Inactive agents cannot start sessions. Default true.' }),
  metadata: z
    .record(z.string(), z.unknown(), 'must be a JSON object')
    .refine((value) => jsonByteLength(value) <= AGENT_METADATA_MAX_BYTES, {
      message: `must be at most ${AGENT_METADATA_MAX_BYTES} bytes as JSON`,
    })
    .check(jsonTextRule)
    .optional()
    .meta({ description: `Free-form JSON object, at most ${AGENT_METADATA_MAX_BYTES} bytes. Default {}.` }),
};

/** `POST …/agents` body. */
export const CreateAgentBody = z.strictObject(agentFields);

/** `PUT …/agents/{agent_id}` body: a partial update, at least one field. */
export const UpdateAgentBody = z
  .strictObject({ ...agentFields, name: agentFields.name.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });

/** `GET …/agents` query. */
export const ListAgentsQuery = z.object({
  active_only: queryBoolean.optional().meta({ description: 'true lists only active agents; default false.' }),
});

/** An agent as every agent endpoint answers it (http-api.md §6); `projectId` is our project id. */
export const AgentSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    description: z.string(),
    script: z.string(),
    envVars: z.record(z.string(), z.string()),
    providerProjectId: z.string().nullable(),
    contextId: z.string().nullable(),
    extensionId: z.string().nullable(),
    region: z.string(),
    timeoutSec: z.int(),
    active: z.boolean(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Agent' });

/** `GET …/agents` response, newest first. */
export const AgentListSchema = z.array(AgentSchema);

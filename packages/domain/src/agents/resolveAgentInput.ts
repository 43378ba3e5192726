import { DEFAULT_TIMEOUT_SEC } from '../sessions/sessionRules.ts';
import type { AgentFields } from './agentRules.ts';

/** Agent fields as a client sends them: every one optional (name is required on create only). */
export type AgentInput = { readonly [K in keyof AgentFields]?: AgentFields[K] | undefined };

/** The fields of a new agent: the input, trimmed, over the defaults of http-api.md §6. */
export function agentFieldsForCreate(
  input: AgentInput & { name: string },
  defaultRegion: string,
): AgentFields {
  return mergeAgentFields(
    {
      name: input.name,
      description: '',
      script: '',
      envVars: {},
      providerProjectId: null,
      contextId: null,
      extensionId: null,
      region: defaultRegion,
      timeoutSec: DEFAULT_TIMEOUT_SEC,
      active: true,
      metadata: {},
    },
    input,
  );
}

/** `base` with every field `input` gives replacing it (undefined means "leave as is"). */
export function mergeAgentFields(base: AgentFields, input: AgentInput): AgentFields {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(input)) if (value !== undefined) merged[key] = value;
  const fields = merged as unknown as AgentFields;
  return { ...fields, name: fields.name.trim() };
}

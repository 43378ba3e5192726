import { Agent, type AgentFields } from '@browserdeck/domain';
import { anAgentFields } from './anAgentFields.ts';
import { BUILT_AT, BUILT_PROJECT_ID, builtId, nextBuiltNumber } from './builderDefaults.ts';

/** What `anAgent` may be told: its id, project and creation time, and any of its fields. */
export type AgentOverrides = Partial<AgentFields> & { id?: string; projectId?: string; now?: Date };

/**
 * A valid agent built through `Agent.create`: a fresh id, name `Agent <n>` (names are unique per
 * project), the default fields of `anAgentFields`, in `BUILT_PROJECT_ID`, created at `BUILT_AT`.
 */
export function anAgent(overrides: AgentOverrides = {}): Agent {
  const n = nextBuiltNumber();
  const { id = builtId(n), projectId = BUILT_PROJECT_ID, now = BUILT_AT, ...fields } = overrides;
  return Agent.create({ id, projectId, now, fields: anAgentFields({ name: `Agent ${n}`, ...fields }) });
}

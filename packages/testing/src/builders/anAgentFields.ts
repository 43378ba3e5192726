import type { AgentFields } from '@browserdeck/domain';

/**
 * Every settable field of an agent, valid, with the values `CreateAgent` gives an agent created by
 * name only (empty script and env, `us-west-2`, 300 s, active); `name` is `Crawler` unless told.
 */
export function anAgentFields(overrides: Partial<AgentFields> = {}): AgentFields {
  return {
    name: 'Crawler',
    description: '',
    script: '',
    envVars: {},
    providerProjectId: null,
    contextId: null,
    extensionId: null,
    region: 'us-west-2',
    timeoutSec: 300,
    active: true,
    metadata: {},
    ...overrides,
  };
}

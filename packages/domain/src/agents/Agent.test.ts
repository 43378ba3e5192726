import { describe, expect, it } from 'vitest';
import { Agent } from './Agent.ts';
import type { AgentFields } from './agentRules.ts';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const FIELDS: AgentFields = {
  name: 'Checkout',
  description: 'Buys things',
  script: 'await page.goto(url)',
  envVars: { TOKEN: 't' },
  providerProjectId: null,
  contextId: null,
  extensionId: null,
  region: 'us-west-2',
  timeoutSec: 300,
  active: true,
  metadata: { team: 'web' },
};

describe('Agent.restore', () => {
  it('rebuilds a created agent from its state, derived fields and methods included', () => {
    const created = Agent.create({ id: 'a-1', projectId: 'p-1', fields: FIELDS, now: T0 });
    const restored = Agent.restore({ ...created });
    expect(restored).toBeInstanceOf(Agent);
    expect(restored).toEqual(created);
    expect(restored.fields).toEqual(FIELDS);
    restored.revise({ ...FIELDS, active: false }, new Date('2026-03-02T00:00:00.000Z'));
    expect(restored.active).toBe(false);
  });
});

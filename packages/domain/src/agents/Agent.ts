import { maskedValues } from '../access/secretMasking.ts';
import type { EntityState } from '../shared/EntityState.ts';
import { writable } from '../shared/writable.ts';
import type { AgentFields } from './agentRules.ts';

/** An agent's stored fields (not the derived `fields`): what `Agent.restore` takes. */
export type AgentState = EntityState<Agent, 'fields'>;

/** A stored session recipe: script, env vars, region, timeout. */
export class Agent implements AgentFields {
  readonly id!: string;
  readonly projectId!: string;
  readonly name!: string;
  readonly description!: string;
  readonly script!: string;
  readonly envVars!: Record<string, string>;
  readonly providerProjectId!: string | null;
  readonly contextId!: string | null;
  readonly extensionId!: string | null;
  readonly region!: string;
  readonly timeoutSec!: number;
  readonly active!: boolean;
  readonly metadata!: Record<string, unknown>;
  readonly createdAt!: Date;
  readonly updatedAt!: Date;

  private constructor() {}

  /** A new agent; the caller has validated `fields` (see `checkAgentFields`). */
  static create(props: { id: string; projectId: string; fields: AgentFields; now: Date }): Agent {
    return Object.assign(new Agent(), {
      id: props.id,
      projectId: props.projectId,
      ...props.fields,
      envVars: { ...props.fields.envVars },
      metadata: { ...props.fields.metadata },
      createdAt: props.now,
      updatedAt: props.now,
    });
  }

  /**
   * For repositories: the agent `state` holds, as it was stored. No validation (a stored row was
   * valid when written); `state`'s fields become the instance's.
   */
  static restore(state: AgentState): Agent {
    return Object.assign(new Agent(), state);
  }

  /** This agent as a viewer reads it (SPEC §17): its `envVars` values masked. A copy. */
  masked(): Agent {
    return Agent.restore({ ...this, envVars: maskedValues(this.envVars) });
  }

  /** The agent's settable fields. */
  get fields(): AgentFields {
    const { name, description, script, envVars, providerProjectId, contextId, extensionId } = this;
    const { region, timeoutSec, active, metadata } = this;
    return {
      name,
      description,
      script,
      envVars,
      providerProjectId,
      contextId,
      extensionId,
      region,
      timeoutSec,
      active,
      metadata,
    };
  }

  /** Replaces the fields with `fields` (validated by the caller). */
  revise(fields: AgentFields, now: Date): void {
    Object.assign(writable(this), fields, { updatedAt: now });
  }
}

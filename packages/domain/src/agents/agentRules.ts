import {
  checkEnv,
  checkProviderIds,
  checkRunSettings,
  PROVIDER_PROJECT_ID_MAX_LENGTH,
  PROVIDER_REF_MAX_LENGTH,
} from '../sessions/sessionRules.ts';
import { Checks, isPlainObject, jsonByteLength } from '../shared/checks.ts';
import { jsonTextProblem } from '../shared/textRules.ts';

export const AGENT_NAME_MAX_LENGTH = 200;
export const AGENT_DESCRIPTION_MAX_LENGTH = 2000;
export const AGENT_METADATA_MAX_BYTES = 8 * 1024;

/** Every field of an agent a client can set. */
export interface AgentFields {
  readonly name: string;
  readonly description: string;
  readonly script: string;
  readonly envVars: Record<string, string>;
  readonly providerProjectId: string | null;
  readonly contextId: string | null;
  readonly extensionId: string | null;
  readonly region: string;
  readonly timeoutSec: number;
  readonly active: boolean;
  readonly metadata: Record<string, unknown>;
}

/**
 * Throws `validation_failed` naming every field of `fields` that breaks a rule. The name and the
 * provider ids refuse control characters; the description may hold tabs and line breaks; the
 * script, env values and metadata may hold anything but NUL (see `textRules.ts`).
 */
export function checkAgentFields(fields: AgentFields, regions: readonly string[]): void {
  const metadataText = jsonTextProblem(fields.metadata);
  const checks = new Checks()
    .length(fields.name, 'name', 1, AGENT_NAME_MAX_LENGTH)
    .text(fields.name, 'name', 'name')
    .require(
      fields.description.length <= AGENT_DESCRIPTION_MAX_LENGTH,
      'description',
      `must be at most ${AGENT_DESCRIPTION_MAX_LENGTH} characters`,
    )
    .text(fields.description, 'description', 'text')
    .require(
      fields.providerProjectId === null ||
        (fields.providerProjectId.length >= 1 &&
          fields.providerProjectId.length <= PROVIDER_PROJECT_ID_MAX_LENGTH),
      'providerProjectId',
      `must be 1 to ${PROVIDER_PROJECT_ID_MAX_LENGTH} characters or null`,
    )
    .require(
      fields.contextId === null || fields.contextId.length <= PROVIDER_REF_MAX_LENGTH,
      'contextId',
      'too long',
    )
    .require(
      fields.extensionId === null || fields.extensionId.length <= PROVIDER_REF_MAX_LENGTH,
      'extensionId',
      'too long',
    )
    .require(
      isPlainObject(fields.metadata) && jsonByteLength(fields.metadata) <= AGENT_METADATA_MAX_BYTES,
      'metadata',
      `must be a JSON object of at most ${AGENT_METADATA_MAX_BYTES} bytes`,
    )
    .require(metadataText === undefined, 'metadata', metadataText ?? '');
  checkProviderIds(checks, fields);
  checkEnv(checks, fields.envVars, 'envVars');
  checkRunSettings(checks, fields, regions);
  checks.throwIfAny();
}

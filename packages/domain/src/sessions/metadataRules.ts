import { AGENT_METADATA_MAX_BYTES } from '../agents/agentRules.ts';
import { type Checks, isPlainObject, jsonByteLength } from '../shared/checks.ts';
import { jsonTextProblem, textProblem } from '../shared/textRules.ts';
import type { MetadataFilter } from './SessionRepository.ts';

/** The largest `metadata` a session may carry, in UTF-8 bytes of its JSON: the agents' limit. */
export const SESSION_METADATA_MAX_BYTES = AGENT_METADATA_MAX_BYTES;

/**
 * The longest metadata filter, in characters of its path keys and value together: a longer one
 * cannot match metadata of `SESSION_METADATA_MAX_BYTES`.
 */
export const METADATA_FILTER_MAX_LENGTH = SESSION_METADATA_MAX_BYTES;

/**
 * What is wrong with a session's `metadata`, or `undefined`: it must be a JSON object of at most
 * `SESSION_METADATA_MAX_BYTES` (UTF-8 bytes of its JSON), its keys and strings free of NUL (the
 * agent `metadata` rule). Both HTTP dialects check their field with it before the use case does.
 */
export function sessionMetadataProblem(metadata: unknown): string | undefined {
  if (!isPlainObject(metadata) || jsonByteLength(metadata) > SESSION_METADATA_MAX_BYTES)
    return `must be a JSON object of at most ${SESSION_METADATA_MAX_BYTES} bytes`;
  return jsonTextProblem(metadata);
}

/** Records at `field` what `sessionMetadataProblem` finds wrong with a session's `metadata`. */
export function checkSessionMetadata(checks: Checks, metadata: unknown, field: string): Checks {
  const problem = sessionMetadataProblem(metadata);
  return checks.require(problem === undefined, field, problem ?? '');
}

/**
 * Why `filter` cannot be asked of a store, or `undefined`: a path of at least one key, and keys
 * and value that stored metadata could hold (no NUL, well-formed Unicode), within
 * `METADATA_FILTER_MAX_LENGTH`.
 */
export function metadataFilterProblem(filter: MetadataFilter): string | undefined {
  const { path, value } = filter;
  if (!Array.isArray(path) || path.length === 0) return 'must name at least one key';
  if (![...path, value].every((part) => typeof part === 'string')) return 'keys and value must be strings';
  const length = path.reduce((sum, key) => sum + key.length, value.length);
  if (length > METADATA_FILTER_MAX_LENGTH)
    return `keys and value must be at most ${METADATA_FILTER_MAX_LENGTH} characters together`;
  for (const part of [...path, value]) {
    const problem = textProblem(part, 'opaque');
    if (problem) return problem;
  }
  return undefined;
}

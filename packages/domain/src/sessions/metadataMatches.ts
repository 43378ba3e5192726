import { isPlainObject } from '../shared/checks.ts';
import type { MetadataFilter } from './SessionRepository.ts';

/**
 * The JSON values a session's metadata may hold at the filter's path to match `value`: the string
 * itself, and the number or boolean whose JSON text `value` is. Only the exact text that
 * `JSON.stringify` writes counts (`5`, `1.5`, `1e+21`, `true`; not `5.0` or `1e21`), so every store
 * agrees: the database ones compare these values as JSON (PostgreSQL `jsonb` equality) or the
 * stored JSON text (SQLite), and the stored text is what `JSON.stringify` wrote.
 */
export function matchingMetadataValues(value: string): Array<string | number | boolean> {
  const values: Array<string | number | boolean> = [value];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return values;
  }
  if ((typeof parsed === 'number' || typeof parsed === 'boolean') && JSON.stringify(parsed) === value)
    values.push(parsed);
  return values;
}

/** Whether `metadata` matches `filter` (see `MetadataFilter`). */
export function metadataMatches(metadata: Record<string, unknown>, filter: MetadataFilter): boolean {
  let at: unknown = metadata;
  for (const key of filter.path) {
    if (!isPlainObject(at) || !Object.hasOwn(at, key)) return false;
    at = at[key];
  }
  return matchingMetadataValues(filter.value).some((candidate) => candidate === at);
}

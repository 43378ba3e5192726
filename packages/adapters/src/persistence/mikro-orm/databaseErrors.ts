import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { toDatabaseError } from './toDatabaseError.ts';

/**
 * Whether `error` is a violation of the unique constraint `constraint` (e.g.
 * `projects_owner_id_slug_unique`) that covers `column` (`projects.slug`). PostgreSQL names the
 * constraint; SQLite lists the columns (`UNIQUE constraint failed: projects.owner_id, projects.slug`).
 */
export function isUniqueViolationOf(error: unknown, target: { constraint: string; column: string }): boolean {
  if (!(error instanceof UniqueConstraintViolationException)) return false;
  const { constraint } = error as { constraint?: unknown };
  if (typeof constraint === 'string') return constraint === target.constraint;
  return error.message.includes(target.column);
}

/** Runs `work`; a failure to reach the database becomes `UnavailableError('database_unavailable')`. */
export async function withDatabaseErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toDatabaseError(error) ?? error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs (a `uuid` column on PostgreSQL): anything else names no row, and must not reach SQL. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

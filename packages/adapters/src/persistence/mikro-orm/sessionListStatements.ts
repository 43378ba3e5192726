import type { SessionStatus } from '@browserdeck/domain';
import type { SqlParam } from './NativeSql.ts';
import { SELECT_SESSION } from './sessionRows.ts';

/** A statement with `?` placeholders and its parameters. */
export interface SqlStatement {
  sql: string;
  params: SqlParam[];
}

/**
 * The two statements of `SessionRepository.list`: one page, newest first, and the total. With a
 * status they are range scans of `(project_id, status, created_at, id, …)` (the total reads only
 * that index); without, of `(project_id, created_at, id)`.
 */
export function sessionListStatements(
  projectId: string,
  query: { status?: SessionStatus | undefined; limit: number; offset: number },
): { page: SqlStatement; total: SqlStatement } {
  const filter = query.status === undefined ? 'project_id = ?' : 'project_id = ? and status = ?';
  const params = query.status === undefined ? [projectId] : [projectId, query.status];
  return {
    page: {
      sql: `${SELECT_SESSION} where ${filter} order by created_at desc, id desc limit ? offset ?`,
      params: [...params, query.limit, query.offset],
    },
    total: { sql: `select count(*) as total from browser_sessions where ${filter}`, params },
  };
}

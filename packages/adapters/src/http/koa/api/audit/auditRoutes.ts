import { AUDIT_ACTIONS, AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, type AuditEntry } from '@browserdeck/domain';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { projectIdParams, queryInteger, timestamp } from '../shared/commonSchemas.ts';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';

/** The use case behind `GET /v1/projects/{project_id}/audit`. */
export type AuditRouteDeps = UseCasesOf<'projects', 'audit'>;

/** These routes' OpenAPI tag and what it groups. */
export const AUDIT_TAG = {
  name: 'Audit log',
  description:
    'Who changed what in a project: membership, keys, the project, agents, and every session and run create, each with its actor, request id and client address.',
};

/** `GET …/audit` query: a page. */
export const AuditQuery = z.object({
  cursor: z.string('must be given once').max(512).optional().meta({
    description: 'A `nextCursor` of the previous page; absent for the newest entries.',
  }),
  limit: queryInteger(1, AUDIT_PAGE_MAX)
    .optional()
    .meta({ description: `Entries per page, 1 to ${AUDIT_PAGE_MAX}; default ${AUDIT_PAGE_DEFAULT}.` }),
});

/** One audit entry. */
export const AuditEntrySchema = z
  .object({
    id: z.string(),
    at: timestamp,
    actor: z.object({
      type: z.enum(['user', 'apiKey', 'operator', 'system']),
      id: z.string().nullable().meta({ description: 'The user’s or key’s id; null for the service.' }),
      email: z.string().optional(),
      name: z.string().optional().meta({ description: 'An API key’s name (never the key).' }),
    }),
    action: z.enum(AUDIT_ACTIONS),
    target: z.object({ type: z.string(), id: z.string() }),
    requestId: z.string().nullable(),
    ip: z.string().nullable().meta({ description: 'The client’s address, through `TRUST_PROXY`.' }),
  })
  .meta({ id: 'AuditEntry' });

/** A page of the audit log, newest first. */
export const AuditPageSchema = z
  .object({
    entries: z.array(AuditEntrySchema),
    nextCursor: z.string().nullable().meta({ description: 'The next (older) page; null on the last.' }),
  })
  .meta({ id: 'AuditPage' });

/** An audit entry as the API shows it. */
export function presentAuditEntry(entry: AuditEntry): z.output<typeof AuditEntrySchema> {
  const { type, id, email, name } = entry.actor;
  return {
    id: entry.id,
    at: isoTimestamp(entry.at),
    actor: { type, id, ...(email ? { email } : {}), ...(name ? { name } : {}) },
    action: entry.action,
    target: { type: entry.target.type, id: entry.target.id },
    requestId: entry.requestId,
    ip: entry.ip,
  };
}

/** `GET /v1/projects/{project_id}/audit` (SPEC §17; admins). */
export function auditRoutes(deps: AuditRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/projects/{project_id}/audit',
      operationId: 'listAuditEntries',
      role: 'admin',
      summary: 'Read the project’s audit log, newest first',
      description: 'Kept `AUDIT_RETENTION_DAYS` (default 90).',
      tag: AUDIT_TAG.name,
      auth: 'user',
      params: projectIdParams,
      query: AuditQuery,
      responses: { 200: { description: 'A page of entries.', schema: AuditPageSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params, query }) => {
        const page = await deps.audit.execute({
          caller,
          projectId: params.project_id,
          cursor: query.cursor,
          limit: query.limit,
        });
        return {
          status: 200,
          body: { entries: page.entries.map(presentAuditEntry), nextCursor: page.nextCursor },
        };
      },
    }),
  ];
}

import { Run, type RunState } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/**
 * A `runs` row as MikroORM sees it: the domain `Run`'s fields with `env` sealed (a `SecretBox`
 * string holding the JSON object). The JSON columns hold any JSON value (`input`, `result`) or an
 * object (`error`, `sessionRequest`, whose own `env` is sealed too). `runRows.ts` maps both ways.
 */
export type StoredRun = Omit<RunState, 'env'> & { env: string };

/** The columns of `runs`, each named once: the Kysely queries are typed from them too. */
const runProperties = {
  id: p.uuid().primary(),
  projectId: () =>
    p.manyToOne(ProjectSchema).mapToPk().fieldName('project_id').deleteRule('cascade').index(false),
  ownerId: p.uuid(),
  agentId: p.uuid().nullable(),
  sessionId: p.uuid().nullable(),
  status: p.text(),
  input: p.json<unknown>().nullable(),
  result: p.json<unknown>().nullable(),
  error: p.json<Record<string, unknown>>().nullable(),
  exitCode: p.integer().nullable(),
  timeoutSec: p.integer(),
  createdAt: p.datetime(3),
  startedAt: p.datetime(3).nullable(),
  endedAt: p.datetime(3).nullable(),
  logBytes: p.integer(),
  script: p.text(),
  env: p.text(),
  sessionRequest: p.json<Record<string, unknown>>().nullable(),
  workerId: p.text().nullable(),
  heartbeatAt: p.datetime(3).nullable(),
};

/**
 * Maps the domain `Run` onto `runs` (http-api.md §11). `projectId` is a foreign key with
 * `on delete cascade` (a deleted project takes its runs and their logs along); `agentId` and
 * `sessionId` are plain columns, so a run keeps them after its agent or session is gone.
 */
export const RunSchema = defineEntity<StoredRun, typeof runProperties>({
  class: Run as unknown as EntityCtor<StoredRun>,
  tableName: 'runs',
  properties: runProperties,
  // All ascending: listing runs `order by created_at desc, id desc`, a backward scan (see ProjectSchema).
  indexes: [
    // `list` without a filter, and the foreign key's cascade.
    { name: 'runs_project_id_created_at_index', properties: ['projectId', 'createdAt', 'id'] },
    // `list` by status, `listActiveInProject`.
    {
      name: 'runs_project_id_status_created_at_index',
      properties: ['projectId', 'status', 'createdAt', 'id'],
    },
    // `list` by agent; a status filter as well is checked on the rows it finds.
    {
      name: 'runs_project_id_agent_id_created_at_index',
      properties: ['projectId', 'agentId', 'createdAt', 'id'],
    },
    // `list` by session.
    {
      name: 'runs_project_id_session_id_created_at_index',
      properties: ['projectId', 'sessionId', 'createdAt', 'id'],
    },
    // `listQueued`: waiting runs, oldest first. Partial, so it stays as small as the queue.
    { name: 'runs_queued_created_at_index', properties: ['createdAt', 'id'], where: { status: 'QUEUED' } },
    // `listLapsed`: executing runs by heartbeat. Partial, as small as the runs in flight.
    {
      name: 'runs_running_heartbeat_at_index',
      properties: ['heartbeatAt', 'id'],
      where: { status: 'RUNNING' },
    },
    // `listEndedBefore`: the retention's sweep, the longest ended first (an active run has no end).
    { name: 'runs_ended_at_index', properties: ['endedAt', 'id'] },
  ],
});

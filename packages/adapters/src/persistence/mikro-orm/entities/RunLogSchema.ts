import { defineEntity, p } from '@mikro-orm/core';
import { RunSchema } from './RunSchema.ts';

/** The columns of `run_logs`, each named once: the Kysely queries are typed from them too. */
const runLogProperties = {
  runId: () =>
    p.manyToOne(RunSchema).mapToPk().fieldName('run_id').deleteRule('cascade').primary().index(false),
  seq: p.integer().primary(),
  timestamp: p.datetime(3),
  stream: p.text(),
  message: p.text(),
};

/**
 * One line of a run's logs (`run_logs`, http-api.md §11), keyed by `(run_id, seq)`: the key is the
 * order lines are read in, and refuses a `seq` stored twice (an append retried after a lost answer).
 * `runId` is a foreign key with `on delete cascade`: a run's lines go with it.
 */
export const RunLogSchema = defineEntity({
  name: 'RunLog',
  tableName: 'run_logs',
  properties: runLogProperties,
});

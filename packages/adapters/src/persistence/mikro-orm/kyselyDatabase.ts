import type { InferKyselyTable } from '@mikro-orm/sql';
import type { ApiKeySchema } from './entities/ApiKeySchema.ts';
import type { BrowserSessionSchema } from './entities/BrowserSessionSchema.ts';
import type { ExtensionSchema } from './entities/ExtensionSchema.ts';
import type { LocalSignInSessionSchema } from './entities/LocalSignInSessionSchema.ts';
import type { ProjectSchema } from './entities/ProjectSchema.ts';
import type { RunLogSchema } from './entities/RunLogSchema.ts';
import type { RunSchema } from './entities/RunSchema.ts';

/**
 * How Browserdeck's Kysely queries name columns: by entity property (`ownerId`), which MikroORM's
 * Kysely plugin turns into the column (`owner_id`) from the entity schema, the one place it is named.
 */
export const KYSELY_NAMING = { columnNamingStrategy: 'property' } as const;

/**
 * The tables Browserdeck reads and writes through Kysely, typed from their `defineEntity` schemas
 * (MikroORM's `InferKyselyTable`): a renamed or retyped property fails typecheck in every query.
 */
export interface BrowserdeckDb {
  projects: InferKyselyTable<typeof ProjectSchema, typeof KYSELY_NAMING>;
  api_keys: InferKyselyTable<typeof ApiKeySchema, typeof KYSELY_NAMING>;
  browser_sessions: InferKyselyTable<typeof BrowserSessionSchema, typeof KYSELY_NAMING>;
  extensions: InferKyselyTable<typeof ExtensionSchema, typeof KYSELY_NAMING>;
  local_sign_in_sessions: InferKyselyTable<typeof LocalSignInSessionSchema, typeof KYSELY_NAMING>;
  runs: InferKyselyTable<typeof RunSchema, typeof KYSELY_NAMING>;
  run_logs: InferKyselyTable<typeof RunLogSchema, typeof KYSELY_NAMING>;
}

import type { EntitySchemaWithMeta } from '@mikro-orm/core';
import type { InferKyselyTable } from '@mikro-orm/sql';
import type { AgentSchema } from './entities/AgentSchema.ts';
import type { ApiKeySchema } from './entities/ApiKeySchema.ts';
import type { AuditEntrySchema } from './entities/AuditEntrySchema.ts';
import type { BrowserContextSchema } from './entities/BrowserContextSchema.ts';
import type { BrowserSessionSchema } from './entities/BrowserSessionSchema.ts';
import type { ExtensionSchema } from './entities/ExtensionSchema.ts';
import type { IdempotencyKeySchema } from './entities/IdempotencyKeySchema.ts';
import type { InstanceSchema } from './entities/InstanceSchema.ts';
import type { InvitationSchema } from './entities/InvitationSchema.ts';
import type { LocalCredentialSchema } from './entities/LocalCredentialSchema.ts';
import type { LocalRefreshTokenSchema } from './entities/LocalRefreshTokenSchema.ts';
import type { LocalSignInSessionSchema } from './entities/LocalSignInSessionSchema.ts';
import type { OrphanSearchSchema } from './entities/OrphanSearchSchema.ts';
import type { ProjectMemberSchema } from './entities/ProjectMemberSchema.ts';
import type { ProjectSchema } from './entities/ProjectSchema.ts';
import type { RateLimitWindowSchema } from './entities/RateLimitWindowSchema.ts';
import type { RunLogSchema } from './entities/RunLogSchema.ts';
import type { RunSchema } from './entities/RunSchema.ts';
import type { SessionShareSchema } from './entities/SessionShareSchema.ts';
import type { StoredBlobSchema } from './entities/StoredBlobSchema.ts';
import type { SupabaseIssuedRefreshTokenSchema } from './entities/SupabaseIssuedRefreshTokenSchema.ts';
import type { SupabaseRevokedSessionSchema } from './entities/SupabaseRevokedSessionSchema.ts';
import type { UserSchema } from './entities/UserSchema.ts';

/**
 * A table's columns, named as MikroORM names them (a property's `fieldName`, else the underscore
 * naming strategy `createMikroOrm` keeps: `ownerId` is `owner_id`), each typed as its property
 * (nullable, generated when it has a default).
 */
type Table<S extends EntitySchemaWithMeta> = InferKyselyTable<S>;

/**
 * Every table Browserdeck reads and writes, typed from its `defineEntity` schema (MikroORM's
 * `InferKyselyTable`): a renamed or retyped property fails typecheck in every query. Keyed by table
 * name, one entry per schema of `persistenceEntities`.
 */
export interface BrowserdeckDb {
  users: Table<typeof UserSchema>;
  projects: Table<typeof ProjectSchema>;
  local_credentials: Table<typeof LocalCredentialSchema>;
  local_sign_in_sessions: Table<typeof LocalSignInSessionSchema>;
  local_refresh_tokens: Table<typeof LocalRefreshTokenSchema>;
  agents: Table<typeof AgentSchema>;
  api_keys: Table<typeof ApiKeySchema>;
  extensions: Table<typeof ExtensionSchema>;
  browser_sessions: Table<typeof BrowserSessionSchema>;
  idempotency_keys: Table<typeof IdempotencyKeySchema>;
  supabase_revoked_sessions: Table<typeof SupabaseRevokedSessionSchema>;
  supabase_issued_refresh_tokens: Table<typeof SupabaseIssuedRefreshTokenSchema>;
  rate_limit_windows: Table<typeof RateLimitWindowSchema>;
  runs: Table<typeof RunSchema>;
  run_logs: Table<typeof RunLogSchema>;
  instances: Table<typeof InstanceSchema>;
  provider_orphan_searches: Table<typeof OrphanSearchSchema>;
  session_shares: Table<typeof SessionShareSchema>;
  browser_contexts: Table<typeof BrowserContextSchema>;
  stored_blobs: Table<typeof StoredBlobSchema>;
  project_members: Table<typeof ProjectMemberSchema>;
  invitations: Table<typeof InvitationSchema>;
  audit_entries: Table<typeof AuditEntrySchema>;
}

// The Node version check first: this subpath opens SQLite, whose prebuilt driver crashes on Node 20.
import '../../runtime/assertSupportedNode.ts';

export { type BrowserdeckOrm, DATABASE_DIALECTS, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
export { checkDatabase } from './checkDatabase.ts';
export { countActiveSessions } from './countActiveSessions.ts';
export { type CreateMikroOrmOptions, createMikroOrm } from './createMikroOrm.ts';
export { createMikroOrmStorage } from './createMikroOrmStorage.ts';
export { AgentSchema, type StoredAgent } from './entities/AgentSchema.ts';
export { ApiKeySchema } from './entities/ApiKeySchema.ts';
export { AuditEntrySchema } from './entities/AuditEntrySchema.ts';
export { BrowserSessionSchema, type StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
export { ExtensionSchema } from './entities/ExtensionSchema.ts';
export { IdempotencyKeySchema } from './entities/IdempotencyKeySchema.ts';
export { InvitationSchema } from './entities/InvitationSchema.ts';
export { LocalCredentialSchema } from './entities/LocalCredentialSchema.ts';
export { LocalRefreshTokenSchema } from './entities/LocalRefreshTokenSchema.ts';
export { LocalSignInSessionSchema } from './entities/LocalSignInSessionSchema.ts';
export { OrphanSearchSchema } from './entities/OrphanSearchSchema.ts';
export { ProjectMemberSchema } from './entities/ProjectMemberSchema.ts';
export { ProjectSchema } from './entities/ProjectSchema.ts';
export { persistenceEntities } from './entities/persistenceEntities.ts';
export { RateLimitWindowSchema } from './entities/RateLimitWindowSchema.ts';
export { RunLogSchema } from './entities/RunLogSchema.ts';
export { RunSchema, type StoredRun } from './entities/RunSchema.ts';
export { SessionShareSchema } from './entities/SessionShareSchema.ts';
export { SupabaseIssuedRefreshTokenSchema } from './entities/SupabaseIssuedRefreshTokenSchema.ts';
export { SupabaseRevokedSessionSchema } from './entities/SupabaseRevokedSessionSchema.ts';
export { UserSchema } from './entities/UserSchema.ts';
export { MikroOrmAgentRepository, type MikroOrmAgentRepositoryDeps } from './MikroOrmAgentRepository.ts';
export {
  MikroOrmApiKeyRepository,
  type MikroOrmApiKeyRepositoryDeps,
} from './MikroOrmApiKeyRepository.ts';
export { MikroOrmAuditLog, type MikroOrmAuditLogDeps } from './MikroOrmAuditLog.ts';
export {
  MikroOrmExtensionRepository,
  type MikroOrmExtensionRepositoryDeps,
} from './MikroOrmExtensionRepository.ts';
export { MikroOrmIdempotencyStore, type MikroOrmIdempotencyStoreDeps } from './MikroOrmIdempotencyStore.ts';
export {
  MikroOrmInvitationRepository,
  type MikroOrmInvitationRepositoryDeps,
} from './MikroOrmInvitationRepository.ts';
export {
  MikroOrmIssuedRefreshTokenStore,
  type MikroOrmIssuedRefreshTokenStoreDeps,
} from './MikroOrmIssuedRefreshTokenStore.ts';
export {
  MikroOrmLocalIdentityStore,
  type MikroOrmLocalIdentityStoreDeps,
} from './MikroOrmLocalIdentityStore.ts';
export { MikroOrmMemberRepository, type MikroOrmMemberRepositoryDeps } from './MikroOrmMemberRepository.ts';
export {
  MikroOrmProjectRepository,
  type MikroOrmProjectRepositoryDeps,
} from './MikroOrmProjectRepository.ts';
export {
  MikroOrmRateLimiter,
  type MikroOrmRateLimiterDeps,
} from './MikroOrmRateLimiter.ts';
export {
  MikroOrmRevokedSessionStore,
  type MikroOrmRevokedSessionStoreDeps,
} from './MikroOrmRevokedSessionStore.ts';
export { MikroOrmRunLogStore, type MikroOrmRunLogStoreDeps } from './MikroOrmRunLogStore.ts';
export { MikroOrmRunRepository, type MikroOrmRunRepositoryDeps } from './MikroOrmRunRepository.ts';
export {
  MikroOrmSessionRepository,
  type MikroOrmSessionRepositoryDeps,
} from './MikroOrmSessionRepository.ts';
export { MikroOrmSessionShares } from './MikroOrmSessionShares.ts';
export { MikroOrmTransactions, type MikroOrmTransactionsDeps } from './MikroOrmTransactions.ts';
export { MikroOrmUsageRepository, type MikroOrmUsageRepositoryDeps } from './MikroOrmUsageRepository.ts';
export { MikroOrmUserRepository, type MikroOrmUserRepositoryDeps } from './MikroOrmUserRepository.ts';
export { migrateToLatest } from './migrateToLatest.ts';
export { type DatabaseLocation, parseDatabaseUrl } from './parseDatabaseUrl.ts';
export { toDatabaseError } from './toDatabaseError.ts';

import { AgentSchema } from './AgentSchema.ts';
import { ApiKeySchema } from './ApiKeySchema.ts';
import { AuditEntrySchema } from './AuditEntrySchema.ts';
import { BrowserContextSchema } from './BrowserContextSchema.ts';
import { BrowserSessionSchema } from './BrowserSessionSchema.ts';
import { ExtensionSchema } from './ExtensionSchema.ts';
import { IdempotencyKeySchema } from './IdempotencyKeySchema.ts';
import { InstanceSchema } from './InstanceSchema.ts';
import { InvitationSchema } from './InvitationSchema.ts';
import { LocalCredentialSchema } from './LocalCredentialSchema.ts';
import { LocalRefreshTokenSchema } from './LocalRefreshTokenSchema.ts';
import { LocalSignInSessionSchema } from './LocalSignInSessionSchema.ts';
import { OrphanSearchSchema } from './OrphanSearchSchema.ts';
import { ProjectMemberSchema } from './ProjectMemberSchema.ts';
import { ProjectSchema } from './ProjectSchema.ts';
import { RateLimitWindowSchema } from './RateLimitWindowSchema.ts';
import { RunLogSchema } from './RunLogSchema.ts';
import { RunSchema } from './RunSchema.ts';
import { SessionShareSchema } from './SessionShareSchema.ts';
import { StoredBlobSchema } from './StoredBlobSchema.ts';
import { SupabaseIssuedRefreshTokenSchema } from './SupabaseIssuedRefreshTokenSchema.ts';
import { SupabaseRevokedSessionSchema } from './SupabaseRevokedSessionSchema.ts';
import { UserSchema } from './UserSchema.ts';

/** Every entity schema Browserdeck persists; what `createMikroOrm` discovers and migrations cover. */
export const persistenceEntities = [
  UserSchema,
  ProjectSchema,
  LocalCredentialSchema,
  LocalSignInSessionSchema,
  LocalRefreshTokenSchema,
  AgentSchema,
  ApiKeySchema,
  ExtensionSchema,
  BrowserSessionSchema,
  IdempotencyKeySchema,
  SupabaseRevokedSessionSchema,
  SupabaseIssuedRefreshTokenSchema,
  RateLimitWindowSchema,
  RunSchema,
  RunLogSchema,
  InstanceSchema,
  OrphanSearchSchema,
  BrowserContextSchema,
  StoredBlobSchema,
  SessionShareSchema,
  ProjectMemberSchema,
  InvitationSchema,
  AuditEntrySchema,
] as const;

import type { UseCasePorts } from '@browserdeck/domain';
import type { OrphanSearches } from '../browsers/orphans/OrphanSearches.ts';
import type { BlobStore } from '../browsers/shared-state/BlobStore.ts';
import type { ContextRecords } from '../browsers/shared-state/ContextRecords.ts';
import type { SessionShares } from '../browsers/shared-state/SessionShares.ts';
import type { HttpDatabaseHooks } from '../http/koa/HttpAppDeps.ts';
import type { LocalIdentityStore } from '../identity/local/LocalIdentityStore.ts';
import type { IssuedRefreshTokenStore } from '../identity/supabase/IssuedRefreshTokenStore.ts';
import type { RevokedSessionStore } from '../identity/supabase/RevokedSessionStore.ts';
import type { InstanceRegistry } from '../instances/InstanceRegistry.ts';

/**
 * Where Browserdeck keeps its data: the repositories the use cases need, the stores the identity
 * providers need, and the hooks the HTTP app uses to check and scope the database. The MikroORM
 * adapter builds one (`createMikroOrmStorage`); tests build one from the domain's in-memory ports.
 */
export interface BrowserdeckStorage
  extends Pick<
    UseCasePorts,
    | 'users'
    | 'projects'
    | 'members'
    | 'invitations'
    | 'auditLog'
    | 'usage'
    | 'transactions'
    | 'sessions'
    | 'agents'
    | 'apiKeys'
    | 'extensions'
    | 'idempotency'
    | 'rateLimiter'
    | 'runs'
    | 'runLogs'
  > {
  /** Credentials and sign-in sessions of the local identity provider (its default needs them). */
  localIdentity?: LocalIdentityStore | undefined;
  /** Sign-outs and refresh tokens the Supabase identity provider must share between instances. */
  supabase?:
    | { revokedSessions: RevokedSessionStore; issuedRefreshTokens: IssuedRefreshTokenStore }
    | undefined;
  database: HttpDatabaseHooks;
  /**
   * The server instances sharing this database and who holds which session (several instances on
   * PostgreSQL): absent, this instance forwards nothing and sweeps no one (in-memory storage).
   */
  instances?: InstanceRegistry | undefined;
  /**
   * Searches for browsers left by creates whose outcome is unknown (Browserbase), kept across restarts
   * and shared by the instances: absent, the provider keeps them in memory.
   */
  orphanSearches?: OrphanSearches | undefined;
  /**
   * The contexts' records and holds, and the bytes every instance must read (context profiles):
   * absent, the local provider keeps its contexts in its data folder (one instance only).
   */
  contexts?: ContextRecords | undefined;
  blobs?: BlobStore | undefined;
  /**
   * Each account's share of local sessions, counted across the instances sharing this database
   * (SPEC §16): absent, the local provider counts this instance's sessions only.
   */
  sessionShares?: SessionShares | undefined;
  /** Sessions PENDING or RUNNING in every project, for the `browserdeck_active_sessions` gauge. */
  countActiveSessions?: (() => Promise<number>) | undefined;
}

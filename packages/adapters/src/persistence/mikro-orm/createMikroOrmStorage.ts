import type { Clock } from '@browserdeck/domain';
import type { BrowserdeckStorage } from '../../composition/BrowserdeckStorage.ts';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { checkDatabase } from './checkDatabase.ts';
import { countActiveSessions } from './countActiveSessions.ts';
import { MikroOrmAgentRepository } from './MikroOrmAgentRepository.ts';
import { MikroOrmApiKeyRepository } from './MikroOrmApiKeyRepository.ts';
import { MikroOrmAuditLog } from './MikroOrmAuditLog.ts';
import { MikroOrmBlobStore } from './MikroOrmBlobStore.ts';
import { MikroOrmContextRecords } from './MikroOrmContextRecords.ts';
import { MikroOrmExtensionRepository } from './MikroOrmExtensionRepository.ts';
import { MikroOrmIdempotencyStore } from './MikroOrmIdempotencyStore.ts';
import { MikroOrmInstanceRegistry } from './MikroOrmInstanceRegistry.ts';
import { MikroOrmInvitationRepository } from './MikroOrmInvitationRepository.ts';
import { MikroOrmIssuedRefreshTokenStore } from './MikroOrmIssuedRefreshTokenStore.ts';
import { MikroOrmLocalIdentityStore } from './MikroOrmLocalIdentityStore.ts';
import { MikroOrmMemberRepository } from './MikroOrmMemberRepository.ts';
import { MikroOrmOrphanSearches } from './MikroOrmOrphanSearches.ts';
import { MikroOrmProjectRepository } from './MikroOrmProjectRepository.ts';
import { MikroOrmRateLimiter } from './MikroOrmRateLimiter.ts';
import { MikroOrmRevokedSessionStore } from './MikroOrmRevokedSessionStore.ts';
import { MikroOrmRunLogStore } from './MikroOrmRunLogStore.ts';
import { MikroOrmRunRepository } from './MikroOrmRunRepository.ts';
import { MikroOrmSessionRepository } from './MikroOrmSessionRepository.ts';
import { MikroOrmSessionShares } from './MikroOrmSessionShares.ts';
import { MikroOrmTransactions } from './MikroOrmTransactions.ts';
import { MikroOrmUsageRepository } from './MikroOrmUsageRepository.ts';
import { MikroOrmUserRepository } from './MikroOrmUserRepository.ts';
import { toDatabaseError } from './toDatabaseError.ts';

/**
 * Browserdeck's storage on a migrated MikroORM instance: every repository and store, with secrets
 * (connect URLs, agent and run env, idempotent answers, rate-limit keys) sealed by `secrets`. Rate-limit
 * windows, sign-outs, refresh tokens and API keys live in the database, so every instance on it shares them.
 * `transactions` makes a change and its audit entry one transaction, joined by every repository here.
 */
export function createMikroOrmStorage(deps: {
  orm: BrowserdeckOrm;
  secrets: SecretBox;
  clock: Clock;
}): BrowserdeckStorage {
  const { orm, secrets, clock } = deps;
  return {
    users: new MikroOrmUserRepository({ orm }),
    projects: new MikroOrmProjectRepository({ orm }),
    members: new MikroOrmMemberRepository({ orm }),
    invitations: new MikroOrmInvitationRepository({ orm }),
    auditLog: new MikroOrmAuditLog({ orm }),
    usage: new MikroOrmUsageRepository({ orm }),
    transactions: new MikroOrmTransactions({ orm }),
    sessions: new MikroOrmSessionRepository({ orm, secrets }),
    agents: new MikroOrmAgentRepository({ orm, secrets }),
    runs: new MikroOrmRunRepository({ orm, secrets }),
    runLogs: new MikroOrmRunLogStore({ orm }),
    apiKeys: new MikroOrmApiKeyRepository({ orm }),
    extensions: new MikroOrmExtensionRepository({ orm }),
    idempotency: new MikroOrmIdempotencyStore({ orm, secrets }),
    rateLimiter: new MikroOrmRateLimiter({ orm, clock, secrets }),
    localIdentity: new MikroOrmLocalIdentityStore({ orm }),
    supabase: {
      revokedSessions: new MikroOrmRevokedSessionStore({ orm }),
      issuedRefreshTokens: new MikroOrmIssuedRefreshTokenStore({ orm }),
    },
    database: { checkReadiness: () => checkDatabase(orm), translateError: toDatabaseError },
    countActiveSessions: () => countActiveSessions(orm),
    instances: new MikroOrmInstanceRegistry({ orm }),
    orphanSearches: new MikroOrmOrphanSearches({ orm }),
    sessionShares: new MikroOrmSessionShares({ orm }),
    contexts: new MikroOrmContextRecords({ orm }),
    blobs: new MikroOrmBlobStore({ orm, clock }),
  };
}

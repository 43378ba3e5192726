import { Project, User } from '@browserdeck/domain';
import {
  describeAgentRepositoryContract,
  describeApiKeyRepositoryContract,
  describeAuditLogContract,
  describeExtensionRepositoryContract,
  describeIdempotencyStoreContract,
  describeInvitationRepositoryContract,
  describeMemberRepositoryContract,
  describeProjectRepositoryContract,
  describeRateLimiterContract,
  describeRunLogStoreContract,
  describeRunRepositoryContract,
  describeSessionRepositoryContract,
  describeUsageContract,
  describeUserRepositoryContract,
  ManualClock,
} from '@browserdeck/testing';
import {
  describeIssuedRefreshTokenStoreContract,
  describeLocalIdentityStoreContract,
  describeRevokedSessionStoreContract,
} from '@browserdeck/testing/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BrowserdeckOrm,
  DatabaseDialect,
} from '../packages/adapters/src/persistence/mikro-orm/BrowserdeckOrm.ts';
import { MikroOrmAgentRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmAgentRepository.ts';
import { MikroOrmApiKeyRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmApiKeyRepository.ts';
import { MikroOrmAuditLog } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmAuditLog.ts';
import { MikroOrmExtensionRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmExtensionRepository.ts';
import { MikroOrmIdempotencyStore } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmIdempotencyStore.ts';
import { MikroOrmInvitationRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmInvitationRepository.ts';
import { MikroOrmIssuedRefreshTokenStore } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmIssuedRefreshTokenStore.ts';
import { MikroOrmLocalIdentityStore } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmLocalIdentityStore.ts';
import { MikroOrmMemberRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmMemberRepository.ts';
import { MikroOrmProjectRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmProjectRepository.ts';
import { MikroOrmRateLimiter } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmRateLimiter.ts';
import { MikroOrmRevokedSessionStore } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmRevokedSessionStore.ts';
import { MikroOrmRunLogStore } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmRunLogStore.ts';
import { MikroOrmRunRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmRunRepository.ts';
import { MikroOrmSessionRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmSessionRepository.ts';
import { MikroOrmUsageRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmUsageRepository.ts';
import { MikroOrmUserRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmUserRepository.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';
import { givenProject, givenRun, newSecretBox } from './sessionFixtures.ts';

/** Every repository contract suite on one dialect, each repository on a real database. */
export function describeMikroOrmRepositories(dialect: DatabaseDialect): void {
  describe(`MikroORM repositories on ${dialect}`, () => {
    let db: TestOrm;
    beforeAll(async () => {
      db = await openTestOrm(dialect);
    });
    afterAll(() => db?.close());
    const secrets = newSecretBox();

    async function fresh(): Promise<TestOrm> {
      await db.reset();
      return db;
    }
    async function countRows(table: string): Promise<number> {
      const [row] = await db.orm.em
        .getConnection()
        .execute<{ n: unknown }[]>(`select count(*) as n from ${table}`);
      return Number(row?.n);
    }

    describeUserRepositoryContract(`MikroOrmUserRepository (${dialect})`, {
      create: async () => new MikroOrmUserRepository({ orm: (await fresh()).orm }),
    });
    describeProjectRepositoryContract(`MikroOrmProjectRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          projects: new MikroOrmProjectRepository({ orm }),
          users: new MikroOrmUserRepository({ orm }),
          members: new MikroOrmMemberRepository({ orm }),
        };
      },
    });
    describeMemberRepositoryContract(`MikroOrmMemberRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          members: new MikroOrmMemberRepository({ orm }),
          projects: new MikroOrmProjectRepository({ orm }),
          users: new MikroOrmUserRepository({ orm }),
        };
      },
    });
    describeInvitationRepositoryContract(`MikroOrmInvitationRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          invitations: new MikroOrmInvitationRepository({ orm }),
          givenProject: (projectId, ownerId) => givenOwnedProject(orm, projectId, ownerId),
        };
      },
    });
    describeAuditLogContract(`MikroOrmAuditLog (${dialect})`, {
      create: async () => ({ auditLog: new MikroOrmAuditLog({ orm: (await fresh()).orm }) }),
    });
    describeUsageContract(`MikroOrmUsageRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          usage: new MikroOrmUsageRepository({ orm }),
          users: new MikroOrmUserRepository({ orm }),
          projects: new MikroOrmProjectRepository({ orm }),
          sessions: new MikroOrmSessionRepository({ orm, secrets }),
          runs: new MikroOrmRunRepository({ orm, secrets }),
        };
      },
    });
    describeLocalIdentityStoreContract(`MikroOrmLocalIdentityStore (${dialect})`, {
      create: async () => ({ store: new MikroOrmLocalIdentityStore({ orm: (await fresh()).orm }) }),
    });
    describeRevokedSessionStoreContract(`MikroOrmRevokedSessionStore (${dialect})`, {
      create: async () => ({ store: new MikroOrmRevokedSessionStore({ orm: (await fresh()).orm }) }),
      countRecords: () => countRows('supabase_revoked_sessions'),
    });
    describeIssuedRefreshTokenStoreContract(`MikroOrmIssuedRefreshTokenStore (${dialect})`, {
      create: async () => ({ store: new MikroOrmIssuedRefreshTokenStore({ orm: (await fresh()).orm }) }),
      countRecords: () => countRows('supabase_issued_refresh_tokens'),
    });
    describeSessionRepositoryContract(`MikroOrmSessionRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          sessions: new MikroOrmSessionRepository({ orm, secrets }),
          givenProject: (projectId) => givenProject(orm, projectId),
        };
      },
    });
    describeAgentRepositoryContract(`MikroOrmAgentRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          agents: new MikroOrmAgentRepository({ orm, secrets }),
          givenProject: (projectId) => givenProject(orm, projectId),
        };
      },
    });
    describeRunRepositoryContract(`MikroOrmRunRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          runs: new MikroOrmRunRepository({ orm, secrets }),
          givenProject: (projectId) => givenProject(orm, projectId),
        };
      },
    });
    describeRunLogStoreContract(`MikroOrmRunLogStore (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return { logs: new MikroOrmRunLogStore({ orm }), givenRun: (runId) => givenRun(orm, runId, secrets) };
      },
    });
    describeApiKeyRepositoryContract(`MikroOrmApiKeyRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          apiKeys: new MikroOrmApiKeyRepository({ orm }),
          givenProject: (projectId, ownerId) => givenOwnedProject(orm, projectId, ownerId),
        };
      },
    });
    describeExtensionRepositoryContract(`MikroOrmExtensionRepository (${dialect})`, {
      create: async () => {
        const { orm } = await fresh();
        return {
          extensions: new MikroOrmExtensionRepository({ orm }),
          givenProject: (projectId, ownerId) => givenOwnedProject(orm, projectId, ownerId),
        };
      },
    });
    describeRateLimiterContract(`MikroOrmRateLimiter (${dialect})`, {
      create: async (clock) => ({
        limiter: new MikroOrmRateLimiter({ orm: (await fresh()).orm, clock, secrets }),
      }),
      countRecords: () => countRows('rate_limit_windows'),
    });
    it(`MikroOrmRateLimiter (${dialect}) stores keys as digests, never the e-mail or address they name`, async () => {
      const limiter = new MikroOrmRateLimiter({
        orm: (await fresh()).orm,
        clock: new ManualClock(),
        secrets,
      });
      await limiter.consume('signin:email:ada@example.com', { limit: 10, windowSec: 60 });
      const rows = await db.orm.em
        .getConnection()
        .execute<{ key: string }[]>('select key from rate_limit_windows');
      expect(rows).toEqual([{ key: secrets.digest('rate-limit:signin:email:ada@example.com') }]);
    });
    describeIdempotencyStoreContract(`MikroOrmIdempotencyStore (${dialect})`, {
      create: async () => ({
        idempotency: new MikroOrmIdempotencyStore({ orm: (await fresh()).orm, secrets }),
      }),
    });
  });
}

/** Inserts `ownerId` (once) and their project `projectId`, for the rows that reference a project. */
async function givenOwnedProject(orm: BrowserdeckOrm, projectId: string, ownerId: string): Promise<void> {
  const at = new Date('2026-01-01T00:00:00.000Z');
  await new MikroOrmUserRepository({ orm }).ensure(
    User.create({ id: ownerId, email: `${ownerId}@example.com`, createdAt: at }),
  );
  await new MikroOrmProjectRepository({ orm }).add(
    Project.create({ id: projectId, ownerId, name: 'P', slug: `p-${projectId.slice(-6)}`, now: at }),
  );
}

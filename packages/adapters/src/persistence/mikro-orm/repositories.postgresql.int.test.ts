import {
  describeAgentRepositoryContract,
  describeIdempotencyStoreContract,
  describeProjectRepositoryContract,
  describeSessionRepositoryContract,
  describeUserRepositoryContract,
} from '@browserdeck/domain/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import { givenProject, newSecretBox } from '../../../../../test/sessionFixtures.ts';
import { describeLocalIdentityStoreContract } from '../../identity/local/describeLocalIdentityStoreContract.ts';
import { MikroOrmAgentRepository } from './MikroOrmAgentRepository.ts';
import { MikroOrmIdempotencyStore } from './MikroOrmIdempotencyStore.ts';
import { MikroOrmLocalIdentityStore } from './MikroOrmLocalIdentityStore.ts';
import { MikroOrmProjectRepository } from './MikroOrmProjectRepository.ts';
import { MikroOrmSessionRepository } from './MikroOrmSessionRepository.ts';
import { MikroOrmUserRepository } from './MikroOrmUserRepository.ts';

describe('MikroORM repositories on postgresql', () => {
  let db: TestOrm;
  beforeAll(async () => {
    db = await openTestOrm('postgresql');
  });
  afterAll(() => db?.close());
  const secrets = newSecretBox();

  async function fresh(): Promise<TestOrm> {
    await db.reset();
    return db;
  }

  describeUserRepositoryContract('MikroOrmUserRepository (postgresql)', {
    create: async () => new MikroOrmUserRepository({ orm: (await fresh()).orm }),
  });
  describeProjectRepositoryContract('MikroOrmProjectRepository (postgresql)', {
    create: async () => {
      const { orm } = await fresh();
      return { projects: new MikroOrmProjectRepository({ orm }), users: new MikroOrmUserRepository({ orm }) };
    },
  });
  describeLocalIdentityStoreContract('MikroOrmLocalIdentityStore (postgresql)', {
    create: async () => ({ store: new MikroOrmLocalIdentityStore({ orm: (await fresh()).orm }) }),
  });
  describeSessionRepositoryContract('MikroOrmSessionRepository (postgresql)', {
    create: async () => {
      const { orm } = await fresh();
      return {
        sessions: new MikroOrmSessionRepository({ orm, secrets }),
        givenProject: (projectId) => givenProject(orm, projectId),
      };
    },
  });
  describeAgentRepositoryContract('MikroOrmAgentRepository (postgresql)', {
    create: async () => {
      const { orm } = await fresh();
      return {
        agents: new MikroOrmAgentRepository({ orm, secrets }),
        givenProject: (projectId) => givenProject(orm, projectId),
      };
    },
  });
  describeIdempotencyStoreContract('MikroOrmIdempotencyStore (postgresql)', {
    create: async () => ({
      idempotency: new MikroOrmIdempotencyStore({ orm: (await fresh()).orm, secrets }),
    }),
  });
});

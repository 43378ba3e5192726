import { Project, User } from '@browserdeck/domain';
import {
  describeBlobStoreContract,
  describeContextRecordsContract,
  SHARED_STATE_PROJECTS,
} from '@browserdeck/testing/adapters';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { MikroOrmBlobStore } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmBlobStore.ts';
import { MikroOrmContextRecords } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmContextRecords.ts';
import { MikroOrmProjectRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmProjectRepository.ts';
import { MikroOrmUserRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmUserRepository.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';

/** The shared-state contracts on one dialect, over a migrated database with the projects they reference. */
export function describeMikroOrmSharedState(dialect: DatabaseDialect): void {
  describe(`MikroOrmContextRecords and MikroOrmBlobStore on ${dialect}`, () => {
    let db: TestOrm;
    let other: BrowserdeckOrm;
    beforeAll(async () => {
      db = await openTestOrm(dialect);
      if (dialect === 'postgresql') other = await createMikroOrm({ databaseUrl: db.database.url });
    });
    afterAll(async () => {
      await other?.close(true);
      await db?.close();
    });
    const fresh = async () => {
      await db.reset();
      const at = new Date('2026-01-01T00:00:00.000Z');
      const ownerId = '0190e000-0000-7000-8000-00000000c0a0';
      await new MikroOrmUserRepository({ orm: db.orm }).ensure(
        User.create({ id: ownerId, email: 'shared-state@example.com', createdAt: at }),
      );
      for (const id of SHARED_STATE_PROJECTS)
        await new MikroOrmProjectRepository({ orm: db.orm }).add(
          Project.create({ id, ownerId, name: 'P', slug: `p-${id.slice(-6)}`, now: at }),
        );
    };

    describeContextRecordsContract(`MikroOrmContextRecords (${dialect})`, {
      create: async () => {
        await fresh();
        return new MikroOrmContextRecords({ orm: db.orm });
      },
      // SQLite is one instance per file (see describeMikroOrmSessionShares).
      another: dialect === 'postgresql' ? async () => new MikroOrmContextRecords({ orm: other }) : undefined,
    });
    describeBlobStoreContract(`MikroOrmBlobStore (${dialect})`, {
      create: async (clock) => {
        await fresh();
        return new MikroOrmBlobStore({ orm: db.orm, clock });
      },
    });
  });
}

import { describeSessionSharesContract } from '@browserdeck/testing/adapters';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { MikroOrmSessionShares } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmSessionShares.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';

/**
 * The `SessionShares` contract on one dialect: `MikroOrmSessionShares` on a migrated database, and a
 * second ORM on the same database as another instance (on PostgreSQL).
 */
export function describeMikroOrmSessionShares(dialect: DatabaseDialect): void {
  describe(`MikroOrmSessionShares on ${dialect}`, () => {
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

    describeSessionSharesContract(`MikroOrmSessionShares (${dialect})`, {
      create: async () => {
        await db.reset();
        return new MikroOrmSessionShares({ orm: db.orm });
      },
      // SQLite is one instance per file: a second connection in this process would block it
      // (better-sqlite3 waits for another connection's lock synchronously).
      another: dialect === 'postgresql' ? async () => new MikroOrmSessionShares({ orm: other }) : undefined,
    });
  });
}

import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMikroOrm,
  type DatabaseDialect,
  IdempotencyKeySchema,
  migrateToLatest,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { queriesOf } from '../packages/adapters/src/persistence/mikro-orm/KyselyQueries.ts';
import { migrationsList } from '../packages/adapters/src/persistence/mikro-orm/migrations/migrationsList.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';
import { createSqliteTestUrl, createTestDatabase } from './postgres.ts';

/**
 * `idempotency_keys` as someone might map it after adding a property but forgetting the migration.
 * (A leaf table: re-discovering a table that others reference would drag the original schema back in.)
 */
const IdempotencyKeyWithNote = defineEntity({
  name: 'IdempotencyKeyWithNote',
  tableName: 'idempotency_keys',
  properties: {
    scope: p.text().primary(),
    key: p.text().primary(),
    fingerprint: p.text(),
    sessionId: p.uuid().nullable(),
    answer: p.text().nullable(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    note: p.text().nullable(),
  },
});

/**
 * The checked-in migrations of `dialect` against the entity schemas: applied to a fresh database,
 * MikroORM's schema generator must find nothing left to change.
 */
export function describeMikroOrmMigrations(dialect: DatabaseDialect): void {
  describe(`migrations (${dialect})`, () => {
    let db: TestOrm;
    beforeAll(async () => {
      db = await openTestOrm(dialect);
    });
    afterAll(() => db?.close());

    it('bring a fresh database exactly to the entity schemas (no drift)', async () => {
      const executed = await db.orm.migrator.getExecuted();
      expect(executed.length).toBeGreaterThan(0);
      expect(await db.orm.migrator.getPending()).toEqual([]);
      expect(await db.orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    });

    it('are applied once: running them again does nothing', async () => {
      expect(await migrateToLatest(db.orm)).toEqual([]);
    });

    it('are found out when an entity gains a property without a migration', async () => {
      const probe = await createMikroOrm({ databaseUrl: db.database.url });
      try {
        probe.discoverEntity(IdempotencyKeyWithNote, IdempotencyKeySchema);
        const sql = await probe.schema.getUpdateSchemaSQL({ wrap: false });
        expect(sql).toMatch(/alter table [`"]idempotency_keys[`"] add (column )?[`"]note[`"]/i);
      } finally {
        await probe.close(true);
      }
    });

    it('give every project made before members its owner as its owner member, and old keys the developer role', async () => {
      const database = dialect === 'sqlite' ? createSqliteTestUrl() : await createTestDatabase();
      const orm = await createMikroOrm({ databaseUrl: database.url });
      try {
        const names = migrationsList[dialect].map((m) => m.name);
        const teams = names.findIndex((name) => name.endsWith('_teams_and_operators'));
        expect(teams).toBeGreaterThan(0);
        await orm.migrator.up({ to: names[teams - 1] });
        const queries = queriesOf(orm);
        const { db } = queries;
        const owner = '0190e200-0000-7000-8000-0000000000a1';
        const project = '0190e200-0000-7000-8000-0000000000b1';
        const created = new Date('2026-11-30T10:00:00.123Z');
        await queries.run(
          db.insertInto('users').values({ id: owner, email: 'old@example.com', created_at: created }),
        );
        await queries.run(
          db.insertInto('projects').values({
            id: project,
            owner_id: owner,
            name: 'Old',
            slug: 'old',
            archived: false,
            created_at: created,
            updated_at: created,
          }),
        );
        await queries.run(
          db.insertInto('api_keys').values({
            id: '0190e200-0000-7000-8000-0000000000c1',
            project_id: project,
            owner_id: owner,
            name: 'Old key',
            prefix: 'bdk_old00001',
            digest: 'ab'.repeat(32),
            created_at: created,
          }),
        );
        expect((await migrateToLatest(orm)).map((m) => m.name)).toEqual(names.slice(teams));
        const members = await queries.rows(db.selectFrom('project_members').selectAll());
        expect(members).toMatchObject([{ project_id: project, user_id: owner, role: 'owner' }]);
        expect(new Date(Number(members[0]?.created_at) || String(members[0]?.created_at)).toISOString()).toBe(
          created.toISOString(),
        );
        expect(await queries.rows(db.selectFrom('api_keys').select('role'))).toEqual([{ role: 'developer' }]);
        expect(await queries.rows(db.selectFrom('users').select('disabled_at'))).toEqual([
          { disabled_at: null },
        ]);
      } finally {
        await orm.close(true);
        await database.drop();
      }
    });
  });
}

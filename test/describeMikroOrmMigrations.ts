import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMikroOrm,
  type DatabaseDialect,
  migrateToLatest,
  ProjectSchema,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';

/** `projects` as someone might map it after adding a property but forgetting the migration. */
const ProjectWithColor = defineEntity({
  name: 'ProjectWithColor',
  tableName: 'projects',
  properties: {
    id: p.uuid().primary(),
    ownerId: p.uuid(),
    name: p.text(),
    slug: p.text(),
    archived: p.boolean(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    color: p.text().nullable(),
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
        probe.discoverEntity(ProjectWithColor, ProjectSchema);
        const sql = await probe.schema.getUpdateSchemaSQL({ wrap: false });
        expect(sql).toMatch(/alter table [`"]projects[`"] add (column )?[`"]color[`"]/i);
      } finally {
        await probe.close(true);
      }
    });
  });
}

import { ApiKey, DomainError, Project, User } from '@browserdeck/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
  MikroOrmApiKeyRepository,
  MikroOrmLocalIdentityStore,
  MikroOrmProjectRepository,
  MikroOrmUserRepository,
  migrateToLatest,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';
import { createTestDatabase } from './postgres.ts';

const ALICE = '0190e000-0000-7000-8000-00000000000a';
const created = new Date('2026-05-06T07:08:09.123Z');

type Row = Record<string, unknown>;

/** What lands in the tables, and what holds across two ORMs (two server instances) on one database. */
export function describeMikroOrmStorage(dialect: DatabaseDialect): void {
  describe(`MikroORM storage (${dialect})`, () => {
    let db: TestOrm;
    let second: BrowserdeckOrm;
    const rows = (sql: string, params: unknown[] = []) =>
      db.orm.em.getConnection().execute<Row[]>(sql, params);

    beforeAll(async () => {
      db = await openTestOrm(dialect);
      second = await createMikroOrm({ databaseUrl: db.database.url });
    });
    afterAll(async () => {
      await second?.close(true);
      await db?.close();
    });
    beforeEach(() => db.reset());

    async function givenAlice(): Promise<void> {
      await new MikroOrmUserRepository({ orm: db.orm }).ensure(
        User.create({ id: ALICE, email: 'alice@example.com', createdAt: created }),
      );
    }

    function project(slug: string, id = '0190e000-0000-7000-8000-000000000001'): Project {
      return Project.create({ id, ownerId: ALICE, name: `  Project ${slug} `, slug, now: created });
    }

    if (dialect === 'sqlite') {
      it('runs SQLite with WAL, foreign keys and a busy timeout', async () => {
        expect(await rows('pragma journal_mode')).toEqual([{ journal_mode: 'wal' }]);
        expect(await rows('pragma foreign_keys')).toEqual([{ foreign_keys: 1 }]);
        expect(await rows('pragma busy_timeout')).toEqual([{ timeout: 5000 }]);
      });
    }

    it('stores a project as one row with snake_case columns and millisecond timestamps', async () => {
      await givenAlice();
      await new MikroOrmProjectRepository({ orm: db.orm }).add(project('alpha'));
      const stored = await rows('select * from projects');
      expect(stored).toHaveLength(1);
      const [row] = stored as [Row];
      expect(Object.keys(row).sort()).toEqual(
        ['archived', 'created_at', 'id', 'name', 'owner_id', 'slug', 'updated_at'].sort(),
      );
      expect(row).toMatchObject({
        id: project('alpha').id,
        owner_id: ALICE,
        name: 'Project alpha',
        slug: 'alpha',
      });
      expect(Boolean(row.archived)).toBe(false);
      expect(new Date(row.created_at as string).toISOString()).toBe(created.toISOString());
    });

    it('refuses a project whose owner is not a user (foreign key)', async () => {
      const error = await new MikroOrmProjectRepository({ orm: db.orm })
        .add(project('orphan'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DomainError);
      expect(await rows('select id from projects')).toHaveLength(0);
    });

    it("removes a user's projects with the user (on delete cascade), and a deleted project's row", async () => {
      await givenAlice();
      const projects = new MikroOrmProjectRepository({ orm: db.orm });
      await projects.add(project('one', '0190e000-0000-7000-8000-000000000001'));
      await projects.add(project('two', '0190e000-0000-7000-8000-000000000002'));
      expect(await projects.delete(ALICE, '0190e000-0000-7000-8000-000000000001')).toBe(true);
      expect((await rows('select slug from projects')).map((r) => r.slug)).toEqual(['two']);
      await rows('delete from users where id = ?', [ALICE]);
      expect(await rows('select id from projects')).toHaveLength(0);
    });

    it('keeps credential metadata as JSON and refresh-token use as a timestamp', async () => {
      const store = new MikroOrmLocalIdentityStore({ orm: db.orm });
      const metadata = { plan: 'pro', seats: 3, tags: ['x'], nested: { ok: true } };
      await store.addCredential({
        userId: ALICE,
        email: 'alice@example.com',
        passwordHash: 'hash',
        metadata,
        createdAt: created,
      });
      const [credential] = (await rows('select metadata from local_credentials')) as [Row];
      const raw = credential.metadata;
      expect(typeof raw === 'string' ? JSON.parse(raw) : raw).toEqual(metadata);
      await store.addSession({
        id: '0190e000-0000-7000-8000-0000000000f1',
        userId: ALICE,
        createdAt: created,
        revokedAt: null,
      });
      await store.addRefreshToken({
        tokenHash: 'ab'.repeat(32),
        sessionId: '0190e000-0000-7000-8000-0000000000f1',
        userId: ALICE,
        createdAt: created,
        expiresAt: new Date(created.getTime() + 60_000),
        usedAt: null,
      });
      expect(await store.markRefreshTokenUsed('ab'.repeat(32), new Date(created.getTime() + 1_001))).toBe(
        true,
      );
      const [token] = (await rows('select used_at from local_refresh_tokens')) as [Row];
      expect(new Date(token.used_at as string).toISOString()).toBe('2026-05-06T07:08:10.124Z');

      // The sign-in is read with its user's disabled flag, in one statement (SPEC §17).
      const sessionId = '0190e000-0000-7000-8000-0000000000f1';
      expect(await store.findSession(sessionId)).toMatchObject({ userId: ALICE, userDisabled: false });
      await givenAlice();
      expect(await new MikroOrmUserRepository({ orm: db.orm }).setDisabled(ALICE, created)).toBe(true);
      expect(await store.findSession(sessionId)).toMatchObject({ userId: ALICE, userDisabled: true });
    });

    function apiKey(n: number, projectId = project('alpha').id): ApiKey {
      return ApiKey.create({
        id: `0190e000-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`,
        projectId,
        ownerId: ALICE,
        name: `CI key ${n}`,
        role: n % 2 === 0 ? 'viewer' : 'developer',
        prefix: `bdk_key${String(n).padStart(5, '0')}`,
        digest: `${'ef'.repeat(31)}${String(n).padStart(2, '0')}`,
        expiresAt: n % 2 === 0 ? new Date(created.getTime() + 86_400_000) : null,
        now: created,
      });
    }

    it('stores an API key as one snake_case row, prefix and digest only, found through the unique prefix index', async () => {
      await givenAlice();
      await new MikroOrmProjectRepository({ orm: db.orm }).add(project('alpha'));
      await new MikroOrmApiKeyRepository({ orm: db.orm }).add(apiKey(2));
      const [row, ...others] = await rows('select * from api_keys');
      expect(others).toEqual([]);
      expect(Object.keys(row as Row).sort()).toEqual(
        [
          'created_at',
          'digest',
          'expires_at',
          'id',
          'last_used_at',
          'name',
          'owner_id',
          'prefix',
          'project_id',
          'revoked_at',
          'role',
        ].sort(),
      );
      expect(row).toMatchObject({
        id: apiKey(2).id,
        project_id: project('alpha').id,
        owner_id: ALICE,
        name: 'CI key 2',
        role: 'viewer',
        prefix: 'bdk_key00002',
        digest: apiKey(2).digest,
        last_used_at: null,
        revoked_at: null,
      });
      expect(new Date((row as Row).expires_at as string).toISOString()).toBe('2026-05-07T07:08:09.123Z');
      const lookup = 'select * from api_keys where prefix = ?';
      if (dialect === 'sqlite') {
        const plan = await rows(`explain query plan ${lookup}`, ['bdk_key00002']);
        expect(plan.map((step) => step.detail)).toEqual([
          'SEARCH api_keys USING INDEX api_keys_prefix_unique (prefix=?)',
        ]);
      } else {
        const indexes = await rows(
          "select indexdef from pg_indexes where tablename = 'api_keys' and indexname = 'api_keys_prefix_unique'",
        );
        expect(indexes).toEqual([
          { indexdef: expect.stringMatching(/^CREATE UNIQUE INDEX .* USING btree \(prefix\)$/) },
        ]);
      }
    });

    it("removes a deleted project's API keys with it (on delete cascade), and no other project's", async () => {
      await givenAlice();
      const projects = new MikroOrmProjectRepository({ orm: db.orm });
      const one = '0190e000-0000-7000-8000-000000000001';
      const two = '0190e000-0000-7000-8000-000000000002';
      await projects.add(project('one', one));
      await projects.add(project('two', two));
      const keys = new MikroOrmApiKeyRepository({ orm: db.orm });
      await keys.add(apiKey(1, one));
      await keys.add(apiKey(2, one));
      await keys.add(apiKey(3, two));
      expect(await projects.delete(ALICE, one)).toBe(true);
      expect(await rows('select id, project_id from api_keys')).toEqual([
        { id: apiKey(3).id, project_id: two },
      ]);
      expect(await keys.findByPrefix(apiKey(1).prefix)).toBeNull();
      await rows('delete from users where id = ?', [ALICE]);
      expect(await rows('select id from api_keys')).toEqual([]);
    });

    it('refuses a revoked key at once on another instance, and stamps usage once across instances', async () => {
      await givenAlice();
      await new MikroOrmProjectRepository({ orm: db.orm }).add(project('alpha'));
      const [here, there] = [db.orm, second].map((orm) => new MikroOrmApiKeyRepository({ orm })) as [
        MikroOrmApiKeyRepository,
        MikroOrmApiKeyRepository,
      ];
      const key = apiKey(1);
      await here.add(key);
      const later = new Date(created.getTime() + 60_000);
      expect((await there.findByPrefix(key.prefix))?.isUsableAt(later)).toBe(true);
      // Both instances read the key before either revokes it: the later revocation keeps the first date.
      const [first, racing] = await Promise.all([
        here.findInProject(key.projectId, key.id),
        there.findInProject(key.projectId, key.id),
      ]);
      first?.revoke(later);
      await here.saveRevocation(first as ApiKey);
      const after = await there.findByPrefix(key.prefix);
      expect(after?.revokedAt?.toISOString()).toBe(later.toISOString());
      expect(after?.isUsableAt(later)).toBe(false);
      expect(await there.listInProject(key.projectId)).toEqual([]);
      racing?.revoke(new Date(later.getTime() + 5_000));
      await there.saveRevocation(racing as ApiKey);
      expect((await here.findByPrefix(key.prefix))?.revokedAt?.toISOString()).toBe(later.toISOString());

      const stampedAt = async () => {
        const [stamp] = (await rows('select last_used_at from api_keys')) as [Row];
        return new Date(stamp.last_used_at as string).toISOString();
      };
      const stamp = (repository: MikroOrmApiKeyRepository, at: Date) =>
        repository.stampUsage(key.id, at, new Date(at.getTime() - 60_000));
      const used = new Date(created.getTime() + 3_600_000);
      await stamp(here, used);
      // Within the minute the other instance's stamp changes nothing; after it, it writes.
      await stamp(there, new Date(used.getTime() + 59_999));
      expect(await stampedAt()).toBe(used.toISOString());
      const next = new Date(used.getTime() + 60_001);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => stamp([here, there][i % 2]!, new Date(next.getTime() + i))),
      );
      expect(Date.parse(await stampedAt())).toBeGreaterThanOrEqual(next.getTime());
      expect(Date.parse(await stampedAt())).toBeLessThan(next.getTime() + 20);
    });

    it('holds its atomic rules across two ORM instances on one database', async () => {
      const instances = [db.orm, second];
      const users = instances.map((orm) => new MikroOrmUserRepository({ orm }));
      const ensured = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          users[i % 2]!.ensure(
            User.create({ id: ALICE, email: `alice${i}@example.com`, createdAt: created }),
          ),
        ),
      );
      expect(new Set(ensured.map((u) => u.email)).size).toBe(1);
      expect(ensured.every((u) => u instanceof User)).toBe(true);

      const projects = instances.map((orm) => new MikroOrmProjectRepository({ orm }));
      const add = (i: number) =>
        projects[i % 2]!.add(
          project('race', `0190e000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`),
        ).then(
          () => 'ok',
          (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
        );
      const all = Array.from({ length: 20 }, (_, i) => i);
      // An add is a transaction (the project and its owner member). Two SQLite connections in one
      // process cannot interleave transactions: better-sqlite3 waits for the other's lock
      // synchronously, blocking the event loop the holder needs to commit (instances in separate
      // processes wait for each other as they should). So on SQLite each ORM races its own ten adds,
      // one ORM after the other; on PostgreSQL all twenty race at once.
      const adds =
        dialect === 'postgresql'
          ? await Promise.all(all.map(add))
          : [
              ...(await Promise.all(all.filter((i) => i % 2 === 0).map(add))),
              ...(await Promise.all(all.filter((i) => i % 2 === 1).map(add))),
            ];
      expect(adds.filter((o) => o === 'ok')).toHaveLength(1);
      expect(adds.filter((o) => o === 'slug_taken')).toHaveLength(19);
      const listed = await projects[1]!.listForMember(ALICE, { archived: false });
      expect(listed).toHaveLength(1);
      expect(listed[0]?.project).toBeInstanceOf(Project);

      const stores = instances.map((orm) => new MikroOrmLocalIdentityStore({ orm }));
      await stores[0]!.addCredential({
        userId: ALICE,
        email: 'a@example.com',
        passwordHash: 'h',
        metadata: {},
        createdAt: created,
      });
      await stores[0]!.addSession({
        id: '0190e000-0000-7000-8000-0000000000f2',
        userId: ALICE,
        createdAt: created,
        revokedAt: null,
      });
      await stores[1]!.addRefreshToken({
        tokenHash: 'cd'.repeat(32),
        sessionId: '0190e000-0000-7000-8000-0000000000f2',
        userId: ALICE,
        createdAt: created,
        expiresAt: new Date(created.getTime() + 60_000),
        usedAt: null,
      });
      const marks = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          stores[i % 2]!.markRefreshTokenUsed('cd'.repeat(32), new Date()),
        ),
      );
      expect(marks.filter(Boolean)).toHaveLength(1);
    });

    // PostgreSQL only: migrateToLatest serializes instances with an advisory lock. A SQLite file is
    // meant for one server process (see docs/adr/0002-persistence.md).
    if (dialect !== 'postgresql') return;
    it('applies the migrations once when two instances start together on an empty database', async () => {
      const fresh = await createTestDatabase();
      const [a, b] = await Promise.all([
        createMikroOrm({ databaseUrl: fresh.url }),
        createMikroOrm({ databaseUrl: fresh.url }),
      ]);
      try {
        const applied = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
        const total = (await a.migrator.getExecuted()).length;
        expect(total).toBeGreaterThan(0);
        expect(applied[0].length + applied[1].length).toBe(total);
        expect(await a.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
      } finally {
        await a.close(true);
        await b.close(true);
        await fresh.drop();
      }
    });
  });
}

import { SESSION_STATUSES, type SessionStatus } from '@browserdeck/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
  MikroOrmIdempotencyStore,
  MikroOrmSessionRepository,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';
import { givenProject, makeSession, newSecretBox, testId } from './sessionFixtures.ts';

const P1 = testId(1, 1);
const P2 = testId(1, 2);
const NOW = new Date('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;
type Row = Record<string, unknown>;

/**
 * The session tables under load: statistics over hundreds of rows against a hand computation, and
 * the reconciler's claim and idempotency keys raced from two ORM instances (two server instances).
 */
export function describeMikroOrmSessionWorkload(dialect: DatabaseDialect): void {
  describe(`MikroORM session workload (${dialect})`, () => {
    let db: TestOrm;
    let second: BrowserdeckOrm;
    const secrets = newSecretBox();
    const rows = (sql: string, params: unknown[] = []) =>
      db.orm.em.getConnection().execute<Row[]>(sql, params);
    const sessionsOn = (orm: BrowserdeckOrm) => new MikroOrmSessionRepository({ orm, secrets });

    beforeAll(async () => {
      db = await openTestOrm(dialect);
      second = await createMikroOrm({ databaseUrl: db.database.url });
    });
    afterAll(async () => {
      await second?.close(true);
      await db?.close();
    });
    beforeEach(async () => {
      await db.reset();
      await givenProject(db.orm, P1);
      await givenProject(db.orm, P2);
    });

    it('computes stats over a few hundred sessions exactly as by hand', async () => {
      const sessions = sessionsOn(db.orm);
      let seed = 7;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const expected = {
        total: 0,
        byStatus: Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>,
        createdLast24h: 0,
        ended: 0,
        endedSec: 0,
        totalBrowserSec: 0,
      };
      for (let i = 1; i <= 320; i++) {
        const inP1 = i % 8 !== 0;
        // Created up to 3 days ago; one exactly 24 h ago (not "in the last 24 h").
        const createdAt = new Date(
          i === 5 ? NOW.getTime() - DAY : NOW.getTime() - Math.floor(random() * 3 * DAY),
        );
        const startedAt = new Date(createdAt.getTime() + Math.floor(random() * 5_000));
        const status = SESSION_STATUSES[Math.floor(random() * SESSION_STATUSES.length)]!;
        const terminal = status !== 'PENDING' && status !== 'RUNNING';
        // A few end "before" they started (clock skew): those count as 0 s.
        const endedAt = terminal
          ? new Date(startedAt.getTime() + (i % 37 === 0 ? -2_000 : Math.floor(random() * 3_600_000)))
          : null;
        await sessions.add(
          makeSession({
            id: testId(4, i),
            projectId: inP1 ? P1 : P2,
            now: createdAt,
            startedAt,
            status,
            endedAt,
          }),
        );
        if (!inP1) continue;
        expected.total++;
        expected.byStatus[status]++;
        if (NOW.getTime() - createdAt.getTime() < DAY) expected.createdLast24h++;
        const sec = Math.max(0, ((endedAt ?? NOW).getTime() - startedAt.getTime()) / 1000);
        expected.totalBrowserSec += sec;
        if (endedAt) {
          expected.ended++;
          expected.endedSec += sec;
        }
      }
      const stats = await sessions.stats(P1, NOW);
      expect(stats.total).toBe(280);
      expect(stats).toMatchObject({
        total: expected.total,
        byStatus: expected.byStatus,
        createdLast24h: expected.createdLast24h,
      });
      expect(stats.avgDurationSec).toBeCloseTo(expected.endedSec / expected.ended, 3);
      expect(stats.totalBrowserSec).toBeCloseTo(expected.totalBrowserSec, 3);
      expect(Object.values(stats.byStatus).every((n) => n > 0)).toBe(true);
    });

    it('never claims a session twice, with claims racing on two ORM instances', async () => {
      for (let i = 1; i <= 120; i++) {
        await sessionsOn(db.orm).add(
          makeSession({
            id: testId(5, i),
            projectId: i % 2 ? P1 : P2,
            now: new Date(NOW.getTime() - i * 1000),
          }),
        );
      }
      await sessionsOn(db.orm).add(
        makeSession({ id: testId(5, 999), projectId: P1, status: 'COMPLETED', endedAt: NOW }),
      );
      const instances = [sessionsOn(db.orm), sessionsOn(second)];
      const lease = new Date(NOW.getTime() + 60_000);
      const batches = await Promise.all(
        Array.from({ length: 12 }, (_, i) => instances[i % 2]!.claimForSync(NOW, lease, 15)),
      );
      const claimed = batches.flat().map((s) => s.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      // Whatever the race left over is claimable afterwards, and nothing more.
      const rest = (await instances[0]!.claimForSync(NOW, lease, 200)).map((s) => s.id);
      const all = [...claimed, ...rest];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(Array.from({ length: 120 }, (_, i) => testId(5, i + 1)).sort());
    });

    it('lets exactly one of many racing requests claim an idempotency key', async () => {
      const stores = [db.orm, second].map((orm) => new MikroOrmIdempotencyStore({ orm, secrets }));
      const ids = Array.from({ length: 20 }, (_, i) => testId(9, i + 1));
      const results = await Promise.all(
        ids.map((id, i) =>
          stores[i % 2]!.reserve('scope', 'race', 'body', id, NOW, new Date(NOW.getTime() + DAY)),
        ),
      );
      expect(results.filter((r) => r === null)).toHaveLength(1);
      const winner = ids[results.indexOf(null)];
      expect(results.filter((r) => r !== null)).toEqual(
        Array.from({ length: 19 }, () => ({
          fingerprint: 'body',
          sessionId: winner,
          answer: null,
          claimedAt: NOW,
        })),
      );
      const [row] = (await rows('select fingerprint from idempotency_keys')) as [Row];
      expect(row.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(row.fingerprint).toBe(secrets.digest('body'));
    });
  });
}

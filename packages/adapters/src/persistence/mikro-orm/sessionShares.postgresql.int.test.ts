import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeMikroOrmSessionShares } from '../../../../../test/describeMikroOrmSessionShares.ts';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { createMikroOrm } from './createMikroOrm.ts';
import { MikroOrmSessionShares } from './MikroOrmSessionShares.ts';

describeMikroOrmSessionShares('postgresql');

describe('MikroOrmSessionShares on PostgreSQL: two instances claiming at the same instant', () => {
  let db: TestOrm;
  let other: BrowserdeckOrm;
  beforeAll(async () => {
    db = await openTestOrm('postgresql');
    other = await createMikroOrm({ databaseUrl: db.database.url });
  });
  afterAll(async () => {
    await other?.close(true);
    await db?.close();
  });

  it('gives an account with a share of 1 to exactly one of two simultaneous claims, every time', async () => {
    const a = new MikroOrmSessionShares({ orm: db.orm });
    const b = new MikroOrmSessionShares({ orm: other });
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 300_000);
    // Both pools warm, so neither claim waits for a connection while the other runs.
    await Promise.all([a.held('warm-up', now), b.held('warm-up', now)]);
    const winners: string[] = [];
    for (let round = 0; round < 25; round++) {
      const ownerId = `owner-${round}`;
      const answers = await Promise.all(
        (['a', 'b'] as const).map((side) =>
          (side === 'a' ? a : b).claim(
            { sessionId: `${side}-${round}`, ownerId, instanceId: side, createdAt: now, expiresAt },
            1,
          ),
        ),
      );
      expect(
        answers.filter((answer) => answer.granted),
        `round ${round}`,
      ).toHaveLength(1);
      expect(await a.held(ownerId, now), `round ${round}`).toBe(1);
      winners.push(answers[0]?.granted ? 'a' : 'b');
    }
    expect(winners).toHaveLength(25);
  });
});

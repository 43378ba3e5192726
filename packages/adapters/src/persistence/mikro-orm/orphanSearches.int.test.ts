import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import type { OrphanSearch } from '../../browsers/orphans/OrphanSearches.ts';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import { MikroOrmOrphanSearches } from './MikroOrmOrphanSearches.ts';

const at = (sec: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, sec));
const search = (sessionId: string, nextSec: number, overrides: Partial<OrphanSearch> = {}): OrphanSearch => ({
  sessionId,
  provider: 'browserbase',
  providerProjectId: '9d1b7c42-8e0a-4f3b-b6d5-2c7e1a0f4b98',
  attempt: 0,
  nextAt: at(nextSec),
  createdAt: at(0),
  ...overrides,
});

describe.each<DatabaseDialect>(['sqlite', 'postgresql'])('MikroOrmOrphanSearches (%s)', (dialect) => {
  let test: TestOrm;
  let searches: MikroOrmOrphanSearches;

  beforeAll(async () => {
    test = await openTestOrm(dialect);
    searches = new MikroOrmOrphanSearches({ orm: test.orm });
  });
  beforeEach(() => test.reset());
  afterAll(() => test?.close());

  it('claims a due search once per lease, then reschedules and removes it', async () => {
    await searches.add(search('s1', 0));
    // Recorded again (the same session): the first record stays as it is.
    await searches.add(search('s1', 50, { attempt: 2 }));

    expect(await searches.claimDue('browserbase', at(-1), at(60), 10)).toEqual([]);
    expect(await searches.claimDue('browserbase', at(0), at(60), 10)).toEqual([search('s1', 0)]);
    // Leased until 60 s: no other claimer gets it before.
    expect(await searches.claimDue('browserbase', at(30), at(90), 10)).toEqual([]);
    // A claimer that died: its lease ends, and the search is claimed again.
    expect(await searches.claimDue('browserbase', at(60), at(120), 10)).toEqual([search('s1', 0)]);

    await searches.reschedule('s1', 1, at(70));
    expect(await searches.claimDue('browserbase', at(65), at(200), 10)).toEqual([]);
    // Rescheduling ended the lease (120 s): due at 70 s, claimed at once.
    expect(await searches.claimDue('browserbase', at(70), at(200), 10)).toEqual([
      search('s1', 70, { attempt: 1 }),
    ]);

    await searches.remove('s1');
    expect(await searches.claimDue('browserbase', at(500), at(600), 10)).toEqual([]);
  });

  it("claims only its provider's searches, earliest due first, at most `limit`", async () => {
    await searches.add(search('late', 20));
    await searches.add(search('early', 10, { providerProjectId: null }));
    await searches.add(search('other', 0, { provider: 'elsewhere' }));
    await searches.add(search('later', 30));

    expect(await searches.claimDue('browserbase', at(30), at(90), 2)).toEqual([
      search('early', 10, { providerProjectId: null }),
      search('late', 20),
    ]);
    expect((await searches.claimDue('browserbase', at(30), at(90), 2)).map((s) => s.sessionId)).toEqual([
      'later',
    ]);
    expect((await searches.claimDue('elsewhere', at(30), at(90), 2)).map((s) => s.sessionId)).toEqual([
      'other',
    ]);
    expect(await searches.claimDue('browserbase', at(30), at(90), 0)).toEqual([]);
  });

  it('gives each due search to one claimer when several claim at once', async () => {
    for (let i = 0; i < 6; i++) await searches.add(search(`s${i}`, i));

    const claims = await Promise.all(
      Array.from({ length: 8 }, () => searches.claimDue('browserbase', at(10), at(100), 2)),
    );

    const claimed = claims.flat().map((s) => s.sessionId);
    expect(claimed).toHaveLength(6);
    expect(new Set(claimed).size).toBe(6);
  });
});

import type {
  ProjectRepository,
  RunRepository,
  SessionRepository,
  UsageRepository,
  UserRepository,
} from '@browserdeck/domain';
import { Project, User } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { aRun } from '../builders/aRun.ts';
import { aSession } from '../builders/aSession.ts';

/** A fresh, empty store: usage, and the stores it sums (sessions and runs in users' projects). */
export interface UsageFixture {
  usage: UsageRepository;
  users: UserRepository;
  projects: ProjectRepository;
  sessions: SessionRepository;
  runs: RunRepository;
}

const ADA = '0190f100-0000-7000-8000-0000000000a1';
const BEN = '0190f100-0000-7000-8000-0000000000b1';
const CY = '0190f100-0000-7000-8000-0000000000c1';
const ADA_1 = '0190f100-0000-7000-8000-0000000000d1';
const ADA_2 = '0190f100-0000-7000-8000-0000000000d2';
const BEN_1 = '0190f100-0000-7000-8000-0000000000e1';

/**
 * Behaviour every `UsageRepository` must have (SPEC §17): per account, the browser time of the
 * sessions in the projects it owns (each from its start to its end, or to `now` while it runs, never
 * below zero), their count and proxy bytes, and the count of those projects' runs.
 */
export function describeUsageContract(name: string, options: { create: () => Promise<UsageFixture> }): void {
  describe(`UsageRepository contract: ${name}`, () => {
    const base = Date.parse('2026-08-01T10:00:00.000Z');
    const at = (sec: number) => new Date(base + sec * 1000);
    const now = at(1_000);

    async function given(): Promise<UsageFixture> {
      const fixture = await options.create();
      for (const id of [ADA, BEN, CY]) {
        await fixture.users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: at(0) }));
      }
      for (const [id, ownerId] of [
        [ADA_1, ADA],
        [ADA_2, ADA],
        [BEN_1, BEN],
      ] as const) {
        await fixture.projects.add(
          Project.create({ id, ownerId, name: id, slug: `p-${id.slice(-2)}`, now: at(0) }),
        );
      }
      const { sessions, runs } = fixture;
      // Ada: 60 s ended, 30 s running until `now`, 15 s in her other project; 1,500 proxy bytes.
      await sessions.add(
        aSession({
          projectId: ADA_1,
          now: at(100),
          status: 'COMPLETED',
          endedAt: at(160),
          proxyBytes: 1_000,
        }),
      );
      await sessions.add(aSession({ projectId: ADA_1, now: at(970), proxyBytes: 500 }));
      await sessions.add(aSession({ projectId: ADA_2, now: at(200), status: 'COMPLETED', endedAt: at(215) }));
      // Ben: 200 s, and one whose provider clock ended it before it started (counts 0 s).
      await sessions.add(aSession({ projectId: BEN_1, now: at(300), status: 'COMPLETED', endedAt: at(500) }));
      await sessions.add(
        aSession({ projectId: BEN_1, startedAt: at(600), now: at(600), status: 'ERROR', endedAt: at(590) }),
      );
      await runs.add(aRun({ projectId: ADA_1, ownerId: ADA, now: at(100) }));
      await runs.add(aRun({ projectId: ADA_2, ownerId: ADA, now: at(110), status: 'SUCCEEDED' }));
      await runs.add(aRun({ projectId: BEN_1, ownerId: BEN, now: at(120) }));
      return fixture;
    }

    it('sums each asked account’s sessions, browser time, proxy bytes and runs, in the order asked', async () => {
      const { usage } = await given();
      const answer = await usage.usageOf([BEN, CY, ADA], now);
      expect(answer.map((u) => u.userId)).toEqual([BEN, CY, ADA]);
      const [ben, cy, ada] = answer;
      expect(ada).toMatchObject({ userId: ADA, sessions: 3, runs: 2, proxyBytes: 1_500 });
      expect(ada?.browserSeconds).toBeCloseTo(105, 3);
      expect(ben).toMatchObject({ userId: BEN, sessions: 2, runs: 1, proxyBytes: 0 });
      expect(ben?.browserSeconds).toBeCloseTo(200, 3);
      expect(cy).toEqual({ userId: CY, browserSeconds: 0, sessions: 0, runs: 0, proxyBytes: 0 });
      expect(await usage.usageOf([], now)).toEqual([]);
      expect((await usage.usageOf(['not-a-user-id'], now))[0]).toMatchObject({ sessions: 0, runs: 0 });
    });

    it('closes running sessions at `now`', async () => {
      const { usage } = await given();
      const [ada] = await usage.usageOf([ADA], at(1_030));
      expect(ada?.browserSeconds).toBeCloseTo(135, 3);
    });

    it('lists every account with sessions or runs, the most browser time first', async () => {
      const { usage } = await given();
      const all = await usage.usageOfAll(now);
      expect(all.map((u) => [u.userId, u.sessions, u.runs])).toEqual([
        [BEN, 2, 1],
        [ADA, 3, 2],
      ]);
      expect(all[1]?.browserSeconds).toBeCloseTo(105, 3);
    });
  });
}

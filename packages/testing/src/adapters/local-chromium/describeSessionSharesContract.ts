import {
  SESSION_SHARE_STALE_AFTER_MS,
  type SessionShare,
  type SessionShares,
} from '@browserdeck/adapters/local-chromium';
import { describe, expect, it } from 'vitest';

/** How to create an empty ledger under test, and optionally a second handle on the same one (another instance). */
export interface SessionSharesContractOptions {
  create: () => Promise<SessionShares>;
  /** A second `SessionShares` over the one `create` returned last, as another instance sees it. */
  another?: (() => Promise<SessionShares>) | undefined;
}

const base = Date.parse('2026-12-02T15:30:00.000Z');
const at = (sec: number) => new Date(base + sec * 1000);
const OWNER = '0b5e6f4c-3d2a-4e1b-9c8d-7a6b5c4d3e2f';
const OTHER_OWNER = '1c6f7a5d-4e3b-4f2c-8d9e-8b7c6d5e4f30';

/** A slot of `OWNER` on instance `i0`, claimed at 0 s with a 300 s deadline, unless told otherwise. */
function share(sessionId: string, overrides: Partial<SessionShare> = {}): SessionShare {
  return { sessionId, ownerId: OWNER, instanceId: 'i0', createdAt: at(0), expiresAt: at(300), ...overrides };
}

/** Behaviour every `SessionShares` must have (the local provider's per-account share across instances). */
export function describeSessionSharesContract(name: string, options: SessionSharesContractOptions): void {
  describe(`SessionShares contract: ${name}`, () => {
    it("grants an account's slots up to its share, then refuses with the held slots' deadlines", async () => {
      const shares = await options.create();
      expect(await shares.claim(share('s1', { expiresAt: at(100) }), 2)).toEqual({ granted: true });
      expect(await shares.claim(share('s2', { expiresAt: at(200) }), 2)).toEqual({ granted: true });
      const refused = await shares.claim(share('s3'), 2);
      expect(refused.granted).toBe(false);
      if (refused.granted) return;
      expect([...refused.expiries].map((d) => d.toISOString()).sort()).toEqual([
        at(100).toISOString(),
        at(200).toISOString(),
      ]);
      expect(await shares.held(OWNER, at(1))).toBe(2);
      // Another account's share is its own.
      expect(await shares.claim(share('o1', { ownerId: OTHER_OWNER }), 1)).toEqual({ granted: true });
      expect(await shares.held(OTHER_OWNER, at(1))).toBe(1);
    });

    it('gives a slot back when its session is freed, once; freeing an unknown session does nothing', async () => {
      const shares = await options.create();
      await shares.claim(share('s1'), 1);
      expect((await shares.claim(share('s2'), 1)).granted).toBe(false);
      await shares.free('s1');
      await shares.free('s1');
      await shares.free('never-claimed');
      expect(await shares.held(OWNER, at(1))).toBe(0);
      expect(await shares.claim(share('s2'), 1)).toEqual({ granted: true });
      expect(await shares.held(OWNER, at(1))).toBe(1);
    });

    it('counts a session claimed twice once (a retried create keeps its slot)', async () => {
      const shares = await options.create();
      expect(await shares.claim(share('s1'), 1)).toEqual({ granted: true });
      expect(await shares.claim(share('s1'), 1)).toEqual({ granted: true });
      expect(await shares.held(OWNER, at(1))).toBe(1);
    });

    it("frees every slot of an instance, and only that instance's", async () => {
      const shares = await options.create();
      await shares.claim(share('a1', { instanceId: 'i0' }), 5);
      await shares.claim(share('a2', { instanceId: 'i0', ownerId: OTHER_OWNER }), 5);
      await shares.claim(share('b1', { instanceId: 'i1' }), 5);
      expect(await shares.freeInstance('i0')).toBe(2);
      expect(await shares.freeInstance('i0')).toBe(0);
      expect(await shares.held(OWNER, at(1))).toBe(1);
      expect(await shares.held(OTHER_OWNER, at(1))).toBe(0);
    });

    it(`stops counting a slot ${SESSION_SHARE_STALE_AFTER_MS / 1000} s past its deadline (its free was lost)`, async () => {
      const shares = await options.create();
      await shares.claim(share('s1', { expiresAt: at(10) }), 1);
      const staleAt = (SESSION_SHARE_STALE_AFTER_MS + 10_000) / 1000;
      expect((await shares.claim(share('s2', { createdAt: at(staleAt - 1) }), 1)).granted).toBe(false);
      expect(await shares.held(OWNER, at(staleAt))).toBe(0);
      expect(await shares.claim(share('s2', { createdAt: at(staleAt) }), 1)).toEqual({ granted: true });
    });

    it('grants exactly the share when many claims for one account arrive at once', async () => {
      const shares = await options.create();
      const others = options.another ? await options.another() : shares;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? others : shares).claim(share(`c${i}`), 3)),
      );
      expect(answers.filter((a) => a.granted)).toHaveLength(3);
      expect(await shares.held(OWNER, at(1))).toBe(3);
    });

    if (options.another) {
      const another = options.another;
      it('holds across instances: a slot taken through one handle counts through the other', async () => {
        const shares = await options.create();
        const other = await another();
        expect(await shares.claim(share('s1', { instanceId: 'i0' }), 1)).toEqual({ granted: true });
        expect((await other.claim(share('s2', { instanceId: 'i1' }), 1)).granted).toBe(false);
        await shares.free('s1');
        expect(await other.claim(share('s2', { instanceId: 'i1' }), 1)).toEqual({ granted: true });
      });
    }
  });
}

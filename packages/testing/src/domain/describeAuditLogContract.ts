import type { AuditAction, AuditActor, AuditEntry, AuditLog } from '@browserdeck/domain';
import { DomainError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh, empty audit log. */
export interface AuditLogFixture {
  auditLog: AuditLog;
}

const P1 = '0190e100-0000-7000-8000-0000000000b1';
const P2 = '0190e100-0000-7000-8000-0000000000b2';
const USER = '0190e100-0000-7000-8000-0000000000a1';

/**
 * Behaviour every `AuditLog` must have (SPEC §17): entries kept field for field, a project's listed
 * newest first a page at a time (ties by id), and retention by `deleteBefore`.
 */
export function describeAuditLogContract(
  name: string,
  options: { create: () => Promise<AuditLogFixture> },
): void {
  describe(`AuditLog contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-07-01T12:00:00.321Z');
    const at = (minute: number) => new Date(base + minute * 60_000);

    function entry(
      props: { projectId?: string | null; minute?: number; actor?: AuditActor; action?: AuditAction } = {},
    ): AuditEntry {
      seq++;
      return {
        id: `0190e100-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId: props.projectId === undefined ? P1 : props.projectId,
        at: at(props.minute ?? seq),
        actor: props.actor ?? { type: 'user', id: USER, email: 'ada@example.com' },
        action: props.action ?? 'member.invite',
        target: { type: 'invitation', id: `invitation-${seq}` },
        requestId: `req-${seq}`,
        ip: '203.0.113.7',
      };
    }
    const idsOf = (entries: AuditEntry[]) => entries.map((e) => e.id);

    it('keeps every field of each kind of actor', async () => {
      const { auditLog } = await options.create();
      const byUser = entry({ minute: 1 });
      const byKey = entry({
        minute: 2,
        actor: { type: 'apiKey', id: '0190e100-0000-7000-8000-0000000000c1', name: "CI key — o'neil ✓" },
        action: 'session.create',
      });
      const bySystem = {
        ...entry({ minute: 3, actor: { type: 'system', id: null } }),
        requestId: null,
        ip: null,
      };
      const byOperator = entry({
        minute: 4,
        actor: { type: 'operator', id: USER, email: 'op@example.com' },
        action: 'project.transfer',
      });
      for (const e of [byUser, byKey, bySystem, byOperator]) await auditLog.record(e);
      const { entries, nextCursor } = await auditLog.list(P1, { limit: 10 });
      expect(entries).toEqual([byOperator, bySystem, byKey, byUser]);
      expect(entries[0]?.at.toISOString()).toBe(byOperator.at.toISOString());
      expect(nextCursor).toBeNull();
    });

    it('lists a project’s entries newest first, a page at a time, ties by id', async () => {
      const { auditLog } = await options.create();
      // Three share one instant; recorded out of order.
      const entries = [
        entry({ minute: 1 }),
        entry({ minute: 5 }),
        entry({ minute: 5 }),
        entry({ minute: 5 }),
        entry({ minute: 9 }),
      ];
      for (const i of [2, 0, 4, 1, 3]) await auditLog.record(entries[i] as AuditEntry);
      await auditLog.record(entry({ projectId: P2, minute: 6 }));
      await auditLog.record(entry({ projectId: null, minute: 7, action: 'account.disable' }));
      const expected = [4, 3, 2, 1, 0].map((i) => entries[i]?.id);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        const answer = await auditLog.list(P1, { cursor, limit: 2 });
        seen.push(...idsOf(answer.entries));
        if (page < 2) expect(answer.nextCursor).toEqual(expect.any(String));
        else expect(answer.nextCursor).toBeNull();
        cursor = answer.nextCursor ?? undefined;
      }
      expect(seen).toEqual(expected);
      expect(idsOf((await auditLog.list(P1, { limit: 5 })).entries)).toEqual(expected);
      expect((await auditLog.list(P1, { limit: 5 })).nextCursor).toBeNull();
      expect((await auditLog.list(P2, { limit: 5 })).entries).toHaveLength(1);
      expect(await auditLog.list('not-a-project-id', { limit: 5 })).toEqual({
        entries: [],
        nextCursor: null,
      });
    });

    it('refuses a cursor it did not give', async () => {
      const { auditLog } = await options.create();
      const refused = await auditLog.list(P1, { cursor: '%%%', limit: 5 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).code).toBe('validation_failed');
    });

    it('deletes the entries older than the cutoff, of every project, and says how many', async () => {
      const { auditLog } = await options.create();
      const old = [
        entry({ minute: 1 }),
        entry({ projectId: P2, minute: 2 }),
        entry({ projectId: null, minute: 3 }),
      ];
      const kept = [entry({ minute: 4 }), entry({ projectId: P2, minute: 5 })];
      for (const e of [...old, ...kept]) await auditLog.record(e);
      expect(await auditLog.deleteBefore(at(4))).toBe(3);
      expect(idsOf((await auditLog.list(P1, { limit: 10 })).entries)).toEqual([kept[0]?.id]);
      expect(idsOf((await auditLog.list(P2, { limit: 10 })).entries)).toEqual([kept[1]?.id]);
      expect(await auditLog.deleteBefore(at(4))).toBe(0);
    });
  });
}

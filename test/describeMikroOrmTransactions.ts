import type { AuditEntry } from '@browserdeck/domain';
import { DomainError, Project, User } from '@browserdeck/domain';
import { RequestContext } from '@mikro-orm/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseDialect } from '../packages/adapters/src/persistence/mikro-orm/BrowserdeckOrm.ts';
import { MikroOrmAuditLog } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmAuditLog.ts';
import { MikroOrmMemberRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmMemberRepository.ts';
import { MikroOrmProjectRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmProjectRepository.ts';
import { MikroOrmTransactions } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmTransactions.ts';
import { MikroOrmUserRepository } from '../packages/adapters/src/persistence/mikro-orm/MikroOrmUserRepository.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';

const OWNER = '0190e300-0000-7000-8000-0000000000a1';
const MEMBER = '0190e300-0000-7000-8000-0000000000a2';
const at = new Date('2026-09-01T10:00:00.000Z');

/**
 * `MikroOrmTransactions` on a real database of `dialect`: a change and its audit entry commit
 * together or not at all, and a repository that opens a transaction of its own inside
 * (`ProjectRepository.add`, `MemberRepository.transfer`) joins the outer one, on SQLite's one
 * connection without waiting on itself.
 */
export function describeMikroOrmTransactions(dialect: DatabaseDialect): void {
  describe(`MikroOrmTransactions on ${dialect}`, () => {
    let db: TestOrm;
    beforeAll(async () => {
      db = await openTestOrm(dialect);
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.reset();
      const users = new MikroOrmUserRepository({ orm: db.orm });
      for (const id of [OWNER, MEMBER])
        await users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: at }));
    });

    const transactions = () => new MikroOrmTransactions({ orm: db.orm });
    const projects = () => new MikroOrmProjectRepository({ orm: db.orm });
    const members = () => new MikroOrmMemberRepository({ orm: db.orm });
    const auditLog = () => new MikroOrmAuditLog({ orm: db.orm });
    let seq = 0;
    function project(slug: string): Project {
      seq++;
      const id = `0190e300-0000-7000-8000-${String(seq).padStart(12, '0')}`;
      return Project.create({ id, ownerId: OWNER, name: slug, slug, now: at });
    }
    function entry(projectId: string): AuditEntry {
      seq++;
      return {
        id: `0190e300-0000-7000-8000-0000000f${String(seq).padStart(4, '0')}`,
        projectId,
        at,
        actor: { type: 'user', id: OWNER, email: 'owner@example.com' },
        action: 'project.create',
        target: { type: 'project', id: projectId },
        requestId: 'req-1',
        ip: null,
      };
    }
    const count = async (table: string) => {
      const [row] = await db.orm.em
        .getConnection()
        .execute<{ n: unknown }[]>(`select count(*) as n from ${table}`);
      return Number(row?.n);
    };
    const stored = async () => ({
      projects: await count('projects'),
      members: await count('project_members'),
      entries: await count('audit_entries'),
    });

    it('stores a change and its audit entry together', async () => {
      const p = project('kept');
      const answer = await transactions().run(async () => {
        await projects().add(p);
        await auditLog().record(entry(p.id));
        return 'done';
      });
      expect(answer).toBe('done');
      expect(await stored()).toEqual({ projects: 1, members: 1, entries: 1 });
    });

    it('stores neither the change nor its entry when the work throws after both', async () => {
      const p = project('undone');
      const failed = transactions().run(async () => {
        await projects().add(p);
        await auditLog().record(entry(p.id));
        // Seen inside the transaction before it ends…
        expect((await projects().findAccess(p.id, OWNER))?.role).toBe('owner');
        throw new Error('boom');
      });
      await expect(failed).rejects.toThrow('boom');
      // …and gone with it: the repository's own transaction was a part of this one.
      expect(await stored()).toEqual({ projects: 0, members: 0, entries: 0 });
    });

    it('rolls a transfer back with the work it ran in', async () => {
      const p = project('moved');
      await projects().add(p);
      await members().add({ projectId: p.id, userId: MEMBER, role: 'admin', now: at });
      const failed = transactions().run(async () => {
        expect(await members().transfer(p.id, OWNER, MEMBER, at)).toBe(true);
        await auditLog().record({ ...entry(p.id), action: 'project.transfer' });
        throw new Error('boom');
      });
      await expect(failed).rejects.toThrow('boom');
      expect((await members().find(p.id, OWNER))?.role).toBe('owner');
      expect((await projects().findAccess(p.id, null))?.project.ownerId).toBe(OWNER);
      expect(await count('audit_entries')).toBe(0);
    });

    it('keeps the transaction usable after a refused nested write the work handles', async () => {
      const first = project('same');
      await projects().add(first);
      const clash = project('same');
      const other = project('other');
      await transactions().run(async () => {
        const refused = await projects()
          .add(clash)
          .catch((error: unknown) => error);
        expect((refused as DomainError).code).toBe('slug_taken');
        expect(refused).toBeInstanceOf(DomainError);
        await projects().add(other);
        await auditLog().record(entry(other.id));
      });
      expect(await stored()).toEqual({ projects: 2, members: 2, entries: 1 });
    });

    it('runs concurrent transactions, nested ones inside, without deadlock', async () => {
      const made = Array.from({ length: 6 }, (_, i) => project(`p${i}`));
      await Promise.all(
        made.map((p) =>
          transactions().run(async () => {
            await transactions().run(() => projects().add(p));
            await auditLog().record(entry(p.id));
          }),
        ),
      );
      expect(await stored()).toEqual({ projects: 6, members: 6, entries: 6 });
    });

    it('joins inside a request context too', async () => {
      const p = project('scoped');
      await RequestContext.create(db.orm.em, async () => {
        const failed = transactions().run(async () => {
          await projects().add(p);
          throw new Error('boom');
        });
        await expect(failed).rejects.toThrow('boom');
      });
      expect(await stored()).toEqual({ projects: 0, members: 0, entries: 0 });
    });
  });
}

import type { ApiKeyRepository } from '@browserdeck/domain';
import { ApiKey, type ApiKeyRole } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh, empty key store, and a way to create the project rows its keys belong to. */
export interface ApiKeyRepositoryFixture {
  apiKeys: ApiKeyRepository;
  /** Makes `projectId` exist, owned by `ownerId` (database stores need the rows for their foreign keys). */
  givenProject(projectId: string, ownerId: string): Promise<void>;
}

const OWNER = '0190e000-0000-7000-8000-0000000000f1';
const P1 = '0190e000-0000-7000-8000-0000000000a1';
const P2 = '0190e000-0000-7000-8000-0000000000a2';

/**
 * Behaviour every `ApiKeyRepository` must have (http-api.md §12): round trips to the millisecond,
 * unique prefixes, newest-first listing without revoked keys, project-scoped reads, revocation, and
 * the conditional usage stamp. `create` gives a fresh, empty store.
 */
export function describeApiKeyRepositoryContract(
  name: string,
  options: { create: () => Promise<ApiKeyRepositoryFixture> },
): void {
  describe(`ApiKeyRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-04-01T08:00:00.123Z');

    function apiKey(
      props: { projectId?: string; minute?: number; expiresAt?: Date | null; role?: ApiKeyRole } = {},
    ): ApiKey {
      seq++;
      const n = String(seq).padStart(8, '0');
      return ApiKey.create({
        id: `0190e000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId: props.projectId ?? P1,
        ownerId: OWNER,
        name: `Key ${seq} — CI ✓`,
        role: props.role ?? 'developer',
        prefix: `bdk_${n}`,
        digest: `${'ab'.repeat(31)}${n.slice(-2)}`,
        expiresAt: props.expiresAt ?? null,
        now: new Date(base + (props.minute ?? seq) * 60_000),
      });
    }

    async function given(): Promise<ApiKeyRepository> {
      const fixture = await options.create();
      await fixture.givenProject(P1, OWNER);
      await fixture.givenProject(P2, OWNER);
      return fixture.apiKeys;
    }

    it('keeps every field, found by prefix and by project', async () => {
      const keys = await given();
      const key = apiKey({ expiresAt: new Date(base + 86_400_000 + 7) });
      await keys.add(key);
      const byPrefix = await keys.findByPrefix(key.prefix);
      expect(byPrefix).toBeInstanceOf(ApiKey);
      expect({ ...byPrefix }).toEqual({ ...key });
      expect({ ...(await keys.findInProject(P1, key.id)) }).toEqual({ ...key });
      expect(await keys.findInProject(P2, key.id)).toBeNull();
      expect(await keys.findByPrefix('bdk_nothere0')).toBeNull();
    });

    it('keeps the role each key acts with', async () => {
      const keys = await given();
      const viewer = apiKey({ role: 'viewer' });
      const developer = apiKey();
      await keys.add(viewer);
      await keys.add(developer);
      expect((await keys.findByPrefix(viewer.prefix))?.role).toBe('viewer');
      expect((await keys.findInProject(P1, developer.id))?.role).toBe('developer');
      expect((await keys.listInProject(P1)).map((k) => k.role)).toEqual(['developer', 'viewer']);
    });

    it('refuses a second key with the same prefix', async () => {
      const keys = await given();
      const first = apiKey();
      await keys.add(first);
      const clash = Object.assign(apiKey(), { prefix: first.prefix });
      await expect(keys.add(clash)).rejects.toThrow();
      expect((await keys.findByPrefix(first.prefix))?.id).toBe(first.id);
    });

    it('lists a project’s keys newest first, without revoked ones or other projects’', async () => {
      const keys = await given();
      const older = apiKey({ minute: 1 });
      const newer = apiKey({ minute: 2 });
      const revoked = apiKey({ minute: 3 });
      const elsewhere = apiKey({ projectId: P2, minute: 4 });
      for (const key of [older, newer, revoked, elsewhere]) await keys.add(key);
      revoked.revoke(new Date(base + 10 * 60_000));
      await keys.saveRevocation(revoked);
      expect((await keys.listInProject(P1)).map((k) => k.id)).toEqual([newer.id, older.id]);
      const stored = await keys.findByPrefix(revoked.prefix);
      expect(stored?.revokedAt?.toISOString()).toBe(new Date(base + 10 * 60_000).toISOString());
      expect(stored?.isUsableAt(new Date(base + 11 * 60_000))).toBe(false);
    });

    it('stamps usage only when the last stamp is older than the bound', async () => {
      const keys = await given();
      const key = apiKey();
      await keys.add(key);
      const t1 = new Date(base + 100 * 60_000);
      await keys.stampUsage(key.id, t1, new Date(t1.getTime() - 60_000));
      expect((await keys.findInProject(P1, key.id))?.lastUsedAt?.toISOString()).toBe(t1.toISOString());
      const t2 = new Date(t1.getTime() + 30_000);
      await keys.stampUsage(key.id, t2, new Date(t2.getTime() - 60_000));
      expect((await keys.findInProject(P1, key.id))?.lastUsedAt?.toISOString()).toBe(t1.toISOString());
      const t3 = new Date(t1.getTime() + 61_000);
      await keys.stampUsage(key.id, t3, new Date(t3.getTime() - 60_000));
      expect((await keys.findInProject(P1, key.id))?.lastUsedAt?.toISOString()).toBe(t3.toISOString());
    });

    it('does not rewrite a fresh stamp, however many instances try at once', async () => {
      const keys = await given();
      const key = apiKey();
      await keys.add(key);
      const at = new Date(base + 200 * 60_000);
      await keys.stampUsage(key.id, at, new Date(at.getTime() - 60_000));
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const later = new Date(at.getTime() + 1_000 + i);
          return keys.stampUsage(key.id, later, new Date(later.getTime() - 60_000));
        }),
      );
      expect((await keys.findInProject(P1, key.id))?.lastUsedAt?.toISOString()).toBe(at.toISOString());
    });
  });
}

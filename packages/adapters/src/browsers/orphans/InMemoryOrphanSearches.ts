import type { OrphanSearch, OrphanSearches } from './OrphanSearches.ts';

/**
 * `OrphanSearches` in this process's memory: for tests, and for storage that keeps none (then a
 * restart forgets the searches in progress).
 */
export class InMemoryOrphanSearches implements OrphanSearches {
  private readonly searches = new Map<string, { search: OrphanSearch; leaseUntil: Date | null }>();

  async add(search: OrphanSearch): Promise<void> {
    if (!this.searches.has(search.sessionId))
      this.searches.set(search.sessionId, { search, leaseUntil: null });
  }

  async claimDue(provider: string, now: Date, leaseUntil: Date, limit: number): Promise<OrphanSearch[]> {
    const due = [...this.searches.values()]
      .filter(
        (kept) =>
          kept.search.provider === provider &&
          kept.search.nextAt <= now &&
          (kept.leaseUntil === null || kept.leaseUntil <= now),
      )
      .sort(
        (a, b) =>
          a.search.nextAt.getTime() - b.search.nextAt.getTime() ||
          (a.search.sessionId < b.search.sessionId ? -1 : 1),
      )
      .slice(0, Math.max(0, Math.floor(limit)));
    for (const kept of due) kept.leaseUntil = leaseUntil;
    return due.map((kept) => kept.search);
  }

  async reschedule(sessionId: string, attempt: number, nextAt: Date): Promise<void> {
    const kept = this.searches.get(sessionId);
    if (kept) this.searches.set(sessionId, { search: { ...kept.search, attempt, nextAt }, leaseUntil: null });
  }

  async remove(sessionId: string): Promise<void> {
    this.searches.delete(sessionId);
  }
}

/** One ended session's kept downloads, as the sweep counts them. */
export interface KeptDownloads {
  /** The provider session id: the folder's name. */
  readonly id: string;
  /** The account whose session it was (`''` for a folder kept before owners were recorded). */
  readonly owner: string;
  /** When it was kept (its session ended), in ms. */
  readonly at: number;
  /** Bytes of its completed downloads. */
  readonly bytes: number;
}

/** The budgets of kept downloads: each account's, and all accounts' together (the ceiling). */
export interface DownloadsBudget {
  readonly maxBytes: number;
  readonly maxBytesPerOwner: number;
}

/**
 * The kept folders that go so the rest fit `budget`, in the order they go. First each account's
 * own, oldest first, until the account is within `maxBytesPerOwner`: one account's downloads only
 * ever evict its own. Then, while all of them are past `maxBytes`, the oldest of the account holding
 * the most bytes (of two holding as much, the one with the older folder): an account holding no more
 * than its fair share (`maxBytes` over the accounts holding any) is never the one holding the most
 * while the total is past `maxBytes`, so another account's downloads never evict its own.
 */
export function downloadsToEvict(kept: readonly KeptDownloads[], budget: DownloadsBudget): KeptDownloads[] {
  const byOwner = new Map<string, KeptDownloads[]>();
  const totals = new Map<string, number>();
  for (const entry of [...kept].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))) {
    const entries = byOwner.get(entry.owner);
    if (entries) entries.push(entry);
    else byOwner.set(entry.owner, [entry]);
    totals.set(entry.owner, (totals.get(entry.owner) ?? 0) + entry.bytes);
  }
  const evicted: KeptDownloads[] = [];
  const evictOldest = (owner: string): number => {
    const entries = byOwner.get(owner) ?? [];
    const oldest = entries.shift();
    if (!oldest) return 0;
    evicted.push(oldest);
    totals.set(owner, (totals.get(owner) ?? 0) - oldest.bytes);
    if (entries.length === 0) {
      byOwner.delete(owner);
      totals.delete(owner);
    }
    return oldest.bytes;
  };
  for (const owner of [...byOwner.keys()]) {
    while ((totals.get(owner) ?? 0) > budget.maxBytesPerOwner) evictOldest(owner);
  }
  let total = [...totals.values()].reduce((sum, bytes) => sum + bytes, 0);
  while (total > budget.maxBytes && byOwner.size > 0) total -= evictOldest(largest(byOwner, totals));
  return evicted;
}

/** The account holding the most bytes; of two holding as much, the one whose oldest folder is older. */
function largest(byOwner: Map<string, KeptDownloads[]>, totals: Map<string, number>): string {
  let chosen = '';
  let chosenBytes = -1;
  let chosenAt = Number.POSITIVE_INFINITY;
  for (const [owner, entries] of byOwner) {
    const bytes = totals.get(owner) ?? 0;
    const at = entries[0]?.at ?? Number.POSITIVE_INFINITY;
    if (bytes > chosenBytes || (bytes === chosenBytes && at < chosenAt)) {
      chosen = owner;
      chosenBytes = bytes;
      chosenAt = at;
    }
  }
  return chosen;
}

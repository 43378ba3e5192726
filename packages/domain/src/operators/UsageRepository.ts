/** What one account used (SPEC §17): sessions and runs it owns, their browser time and proxy bytes. */
export interface AccountUsage {
  readonly userId: string;
  /** Seconds of browser time: each session from its start to its end (or now, while it runs). */
  readonly browserSeconds: number;
  readonly sessions: number;
  readonly runs: number;
  readonly proxyBytes: number;
}

/** Reads usage per account, summed in the database over the sessions and runs each account owns. */
export interface UsageRepository {
  /** Usage of each of `userIds` (every one answered, zeros when unused), up to `now`. */
  usageOf(userIds: readonly string[], now: Date): Promise<AccountUsage[]>;
  /** Usage of every account that owns any session or run, most browser time first. */
  usageOfAll(now: Date): Promise<AccountUsage[]>;
}

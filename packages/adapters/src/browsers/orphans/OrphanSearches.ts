/**
 * A search for a browser a provider may have started although the create that asked for it failed
 * without a clear answer (a timeout, a reset connection, a 5xx): kept until the browser is found
 * (and released) or the last look found nothing, so a restart does not forget it.
 */
export interface OrphanSearch {
  /** Our session id, the one the create carried (how the provider's browser is found). */
  readonly sessionId: string;
  /** The provider's name (`BrowserProvider.name`): only its instances carry the search out. */
  readonly provider: string;
  /** The provider project the create asked for, when it named one. */
  readonly providerProjectId: string | null;
  /** Which look is next: 0 for the first, an index into the provider's delays. */
  readonly attempt: number;
  /** When the next look is due. */
  readonly nextAt: Date;
  /** When the create failed; each look is due a delay after it. */
  readonly createdAt: Date;
}

/**
 * Where orphan searches are kept between looks. Every instance with the provider claims the due ones:
 * a claim leases a search until `leaseUntil`, so two instances never look for the same browser at
 * once, and a search whose claimer died is claimed again once its lease ends.
 */
export interface OrphanSearches {
  /** Records `search` (not leased). A search for the same session already kept stays as it is. */
  add(search: OrphanSearch): Promise<void>;
  /**
   * Leases up to `limit` of `provider`'s searches that are due (`nextAt` ≤ `now`) and not leased
   * (no lease, or one that ended by `now`) until `leaseUntil`, and returns them, earliest due first.
   */
  claimDue(provider: string, now: Date, leaseUntil: Date, limit: number): Promise<OrphanSearch[]>;
  /** Moves a search to its next look (`attempt`, due at `nextAt`) and ends its lease. */
  reschedule(sessionId: string, attempt: number, nextAt: Date): Promise<void>;
  /** Forgets a search: its browser was found, or its last look is done. */
  remove(sessionId: string): Promise<void>;
}

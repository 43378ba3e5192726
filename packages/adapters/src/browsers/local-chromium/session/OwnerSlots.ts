/**
 * The local provider's slot counts: per account (the projects' owner), its running sessions and its
 * creates under way, against `maxPerOwner`; and, across accounts, the creates under way (`reserved`),
 * which count against the host's cap until their session opens or fails.
 */
export class OwnerSlots {
  /** `LOCAL_MAX_SESSIONS_PER_OWNER`. */
  readonly maxPerOwner: number;
  private readonly held_ = new Map<string, number>();
  private creating = 0;

  constructor(maxPerOwner: number) {
    if (!Number.isInteger(maxPerOwner) || maxPerOwner < 1)
      throw new RangeError('maxSessionsPerOwner must be a positive integer');
    this.maxPerOwner = maxPerOwner;
  }

  /** Creates under way, every account's. */
  get reserved(): number {
    return this.creating;
  }

  /** Slots the account holds: running sessions and creates under way. */
  held(ownerId: string): number {
    return this.held_.get(ownerId) ?? 0;
  }

  /** A create starts: it holds one of the account's slots. */
  reserve(ownerId: string): void {
    this.creating++;
    this.held_.set(ownerId, this.held(ownerId) + 1);
  }

  /** A create is over: its slot stays with the session it opened, or is given back. */
  settle(ownerId: string, opened: boolean): void {
    this.creating--;
    if (!opened) this.free(ownerId);
  }

  /** A session of the account reads as ended: its slot is free. */
  free(ownerId: string): void {
    const left = this.held(ownerId) - 1;
    if (left > 0) this.held_.set(ownerId, left);
    else this.held_.delete(ownerId);
  }
}

/** How many nonces one instance remembers at most: beyond it, new calls are refused until some expire. */
const MAX_REMEMBERED = 200_000;

/**
 * The nonces of the signed calls an instance accepted, each kept until its call's time window has
 * passed (after which the call is refused for its time anyway): a nonce is taken once, so a captured
 * call cannot be sent again. Calls arrive in roughly time order, so the oldest entries expire first.
 */
export class SeenNonces {
  private readonly expiries = new Map<string, number>();
  private readonly max: number;

  constructor(options: { max?: number } = {}) {
    this.max = options.max ?? MAX_REMEMBERED;
  }

  /**
   * True, and the nonce remembered until `expiresAt`, when it was not seen before; false when it was
   * (a replay) or when the ledger is full of unexpired nonces.
   */
  take(nonce: string, expiresAt: number, now: number): boolean {
    if (this.expiries.has(nonce)) return false;
    for (const [seen, expiry] of this.expiries) {
      if (expiry > now && this.expiries.size < this.max) break;
      if (expiry > now) return false;
      this.expiries.delete(seen);
    }
    this.expiries.set(nonce, expiresAt);
    return true;
  }
}

/**
 * How long past its deadline a slot still counts: a session ends at its deadline at the latest, so
 * a slot this old is one whose free was lost (its instance could not reach the database then).
 */
export const SESSION_SHARE_STALE_AFTER_MS = 60_000;

/** One local session's slot of its account's share, held from its create until it reads as ended. */
export interface SessionShare {
  /** Our session id (`CreateBrowserRequest.sessionId`): what frees the slot. */
  readonly sessionId: string;
  /** The account the slot counts against (the projects' owner). */
  readonly ownerId: string;
  /** The instance whose browser the session runs in: its slots go when it is lost or restarts. */
  readonly instanceId: string;
  /** When the create claimed it; also the claim's "now". */
  readonly createdAt: Date;
  /** The session's deadline: past it (and `SESSION_SHARE_STALE_AFTER_MS`) the slot no longer counts. */
  readonly expiresAt: Date;
}

/** A claim's answer: the slot, or a refusal with the deadlines of the account's slots (for `Retry-After`). */
export type SessionShareAnswer =
  | { readonly granted: true }
  | { readonly granted: false; readonly expiries: readonly Date[] };

/**
 * The per-account share of local sessions (`LOCAL_MAX_SESSIONS_PER_OWNER`) across every instance
 * sharing one database (SPEC §16: the shares hold across the cluster, not per instance). It lives
 * beside the local provider, its only user: a Browserbase or Grid account's limits are the remote
 * service's. Each instance's provider still counts its own slots synchronously (`OwnerSlots`); after
 * that passes, a create claims its slot here, where every instance's slots are counted together.
 *
 * A claim is atomic across instances: of two claims at once for an account's last slot, one wins.
 * A slot is freed when its session reads as ended or its create fails (`free`), and all of an
 * instance's when the others declare it lost or it starts again (`freeInstance`: its browsers died
 * with it). A slot whose free was lost stops counting `SESSION_SHARE_STALE_AFTER_MS` after its
 * deadline. In memory (`InMemorySessionShares`) without a database; `MikroOrmSessionShares` with one.
 */
export interface SessionShares {
  /**
   * Takes a slot for `share.sessionId` when `share.ownerId` holds fewer than `maxPerOwner` (slots
   * stale at `share.createdAt` not counted); a session that holds one already keeps it (granted).
   */
  claim(share: SessionShare, maxPerOwner: number): Promise<SessionShareAnswer>;
  /** Gives the session's slot back; nothing when it holds none. */
  free(sessionId: string): Promise<void>;
  /** Gives back every slot of sessions on `instanceId`; how many there were. */
  freeInstance(instanceId: string): Promise<number>;
  /** Slots `ownerId` holds at `now` (stale ones not counted), on every instance. */
  held(ownerId: string, now: Date): Promise<number>;
}

/** Whether `share` still counts at `now`. */
export function shareCounts(share: Pick<SessionShare, 'expiresAt'>, now: Date): boolean {
  return share.expiresAt.getTime() + SESSION_SHARE_STALE_AFTER_MS > now.getTime();
}

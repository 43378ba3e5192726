/** A server instance as registered in the shared database. */
export interface InstanceRecord {
  readonly id: string;
  /** Where other instances reach it (`INSTANCE_URL`): its internal routes, WebSockets and WebDriver proxy. */
  readonly url: string;
  /** Its current process: new at every start. */
  readonly bootId: string;
  readonly startedAt: Date;
  /** Its last heartbeat. */
  readonly seenAt: Date;
}

/** Which session a forwarded call is about: by our session id, or by the provider's. */
export type SessionKey = { readonly sessionId: string } | { readonly providerSessionId: string };

/**
 * The instances sharing the database, and which of them holds a session's browser. Every instance
 * writes its own row; any reads all of them.
 */
export interface InstanceRegistry {
  /** Writes `record` as the current state of its instance (a start: new boot, url and times). */
  register(record: InstanceRecord): Promise<void>;
  /**
   * Moves the instance's `seenAt` to `now`, only while `bootId` is still its current boot. False
   * when another process registered the same id since (it took over the id).
   */
  heartbeat(id: string, bootId: string, now: Date): Promise<boolean>;
  find(id: string): Promise<InstanceRecord | null>;
  /** Instances last seen before `before`, oldest first (at most `limit`). */
  listSilentSince(before: Date, limit: number): Promise<InstanceRecord[]>;
  /** Removes an instance's row once it is known to be gone and its sessions are ended. */
  remove(id: string, bootId: string): Promise<void>;
  /**
   * The instance holding the session's browser (`providerInstanceId`): undefined when no session has
   * that id, null when it is a session every instance reaches.
   */
  holderOf(key: SessionKey): Promise<string | null | undefined>;
}

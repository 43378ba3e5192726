/** A stored context (a profile sessions of its project open), as the shared store keeps it. */
export interface ContextRecord {
  readonly id: string;
  readonly projectId: string;
  readonly createdAt: Date;
  /** When a session last saved the profile (the creation time until then). */
  readonly updatedAt: Date;
  /** Which save the stored profile is (its blob is `contexts/<projectId>/<id>/<version>`); null: empty. */
  readonly version: string | null;
  /** Bytes of the stored profile (its zip). */
  readonly size: number;
  /** The session saving to it now, and the instance holding that session; null when none is. */
  readonly holder: ContextHolder | null;
}

/** A session that saves to a context (`contextPersist`), and where it runs. */
export interface ContextHolder {
  /** Our session id (`CreateBrowserRequest.sessionId`). */
  readonly sessionId: string;
  readonly instanceId: string;
  /**
   * When the hold lapses: the session's deadline and a margin. A lapsed hold counts as none, so a
   * hold whose instance stopped before it could let go (a save cut off, a database blip) ends too.
   */
  readonly until: Date;
}

/** A save of a context's profile: which version, how many bytes zipped, when. */
export interface ContextSave {
  readonly version: string;
  readonly size: number;
  readonly updatedAt: Date;
}

/** Whether a session saves to `record` at `now` (it has a holder whose hold has not lapsed). */
export function isHeld(record: ContextRecord, now: Date): boolean {
  return record.holder !== null && record.holder.until.getTime() > now.getTime();
}

/**
 * The contexts of every project, shared by the instances on one database: the record of each and who
 * holds it. A session that saves to a context holds it alone across the cluster (`hold`); one that does
 * not reads the last saved profile and holds nothing. Holds of an instance that died are let go
 * (`letGoOfInstance`), so a context is never held by a browser that no longer exists.
 */
export interface ContextRecords {
  /**
   * Adds a context, empty: 'created'; 'exists' when the project has one by that id already (it is
   * left as it is), 'limit_reached' when the project holds `maxPerProject`.
   */
  create(
    record: { id: string; projectId: string; createdAt: Date },
    maxPerProject: number,
  ): Promise<'created' | 'exists' | 'limit_reached'>;
  /** The context, or null when the project has none with this id. */
  get(projectId: string, id: string): Promise<ContextRecord | null>;
  /**
   * Takes the context for `holder` at `now`: the record, 'busy' while another holds it (a hold not
   * lapsed by `now`), or null when there is none.
   */
  hold(
    projectId: string,
    id: string,
    holder: ContextHolder,
    now: Date,
  ): Promise<ContextRecord | 'busy' | null>;
  /**
   * The holder's session ended: its save (a new `version` of `size` bytes at `updatedAt`) is
   * recorded, or with `saved` null the profile stays as it was; the hold ends either way. False when
   * `holder` no longer held it (its instance was declared lost meanwhile): nothing is written.
   */
  letGo(
    projectId: string,
    id: string,
    holder: Pick<ContextHolder, 'sessionId' | 'instanceId'>,
    saved: ContextSave | null,
  ): Promise<boolean>;
  /** Removes the context: the record it was, 'busy' while a session holds it at `now`, or null when there is none. */
  delete(projectId: string, id: string, now: Date): Promise<ContextRecord | 'busy' | null>;
  /** Ends every hold of `instanceId`'s sessions (it stopped, or restarted without its browsers); how many. */
  letGoOfInstance(instanceId: string): Promise<number>;
}

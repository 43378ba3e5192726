/** A browser context: a stored browser profile (cookies, storage) sessions of its project can open. */
export interface BrowserContextInfo {
  readonly id: string;
  /** Our project the context belongs to. */
  readonly projectId: string;
  readonly createdAt: Date;
  /** When the profile was last written. */
  readonly updatedAt: Date;
}

/**
 * The browser contexts of a provider, scoped by project: a context of another project is unknown.
 * A session opens one through `CreateBrowserRequest.contextId` (and `contextPersist`).
 */
export interface BrowserContextStore {
  /** Makes a new, empty context in the project. */
  create(projectId: string): Promise<BrowserContextInfo>;
  /** The context, or null when the project has none with this id. */
  get(projectId: string, contextId: string): Promise<BrowserContextInfo | null>;
  /**
   * Removes the context and its profile; false when the project has none with this id. A context
   * a running session writes to is refused with `ConflictError('context_in_use')`.
   */
  delete(projectId: string, contextId: string): Promise<boolean>;
  /**
   * The project is deleted: every profile it kept goes (its sessions are released already). Absent
   * where the provider keeps no profiles of its own for the project.
   */
  deleteProject?(projectId: string): Promise<void>;
}

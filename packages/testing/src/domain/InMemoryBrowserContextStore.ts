import type { BrowserContextInfo, BrowserContextStore, Clock } from '@browserdeck/domain';
import { ConflictError } from '@browserdeck/domain';

/**
 * Browser contexts in a Map, for tests. `inUse` says whether a running session writes to a context
 * (the fake provider answers it from its sessions); such a context is not deleted.
 */
export class InMemoryBrowserContextStore implements BrowserContextStore {
  private readonly contexts = new Map<string, BrowserContextInfo>();
  private readonly clock: Clock;
  private readonly inUse: (projectId: string, contextId: string) => boolean;
  private counter = 0;

  constructor(options: { clock: Clock; inUse?: (projectId: string, contextId: string) => boolean }) {
    this.clock = options.clock;
    this.inUse = options.inUse ?? (() => false);
  }

  async create(projectId: string): Promise<BrowserContextInfo> {
    const now = this.clock.now();
    const id = `context-${++this.counter}`;
    const context = { id, projectId, createdAt: now, updatedAt: now };
    this.contexts.set(id, context);
    return { ...context };
  }

  async get(projectId: string, contextId: string): Promise<BrowserContextInfo | null> {
    const context = this.contexts.get(contextId);
    return context && context.projectId === projectId ? { ...context } : null;
  }

  async delete(projectId: string, contextId: string): Promise<boolean> {
    if (!(await this.get(projectId, contextId))) return false;
    if (this.inUse(projectId, contextId))
      throw new ConflictError('context_in_use', `Context ${contextId} is in use by a running session.`);
    return this.contexts.delete(contextId);
  }

  async deleteProject(projectId: string): Promise<void> {
    for (const [id, context] of this.contexts) if (context.projectId === projectId) this.contexts.delete(id);
  }
}

import type { CreateBrowserRequest } from '@browserdeck/domain';
import type { ProfileChoice } from '../launch/PreparedBrowser.ts';
import { type ContextLocks, contextKey } from './ContextLocks.ts';
import { contextProfileDir } from './contextProfileDir.ts';
import type { TemporaryProfiles } from './TemporaryProfiles.ts';

/**
 * A create's hold on the context profile it opens (http-api.md §7): a session that saves to the
 * context (`contextPersist`) holds it alone until it ends; one that does not runs on a copy, and
 * holds the context only while the copy is made.
 */
export class ContextClaim {
  private readonly key: string;
  private readonly dir: string;
  private readonly persist: boolean;
  private readonly locks: ContextLocks;

  private constructor(key: string, dir: string, persist: boolean, locks: ContextLocks) {
    this.key = key;
    this.dir = dir;
    this.persist = persist;
    this.locks = locks;
  }

  /** The claim a create makes; null when it opens no context. */
  static of(request: CreateBrowserRequest, dataDir: string, locks: ContextLocks): ContextClaim | null {
    const { contextId, projectId, contextPersist } = request;
    if (contextId === null) return null;
    const dir = contextProfileDir(dataDir, projectId, contextId);
    return new ContextClaim(contextKey(projectId, contextId), dir, contextPersist, locks);
  }

  /** Whether it can be taken now. */
  get free(): boolean {
    return this.locks.canTake(this.key, this.persist);
  }

  /** Takes it (after `free` said it could be). */
  take(): void {
    if (this.persist) this.locks.takeExclusive(this.key);
    else this.locks.takeForCopy(this.key);
  }

  /** The profile the browser launches on: the context's own folder, or a temporary copy of it. */
  profile(profiles: TemporaryProfiles): ProfileChoice {
    return this.persist ? { kind: 'persistent', dir: this.dir } : { kind: 'copy', profiles, from: this.dir };
  }

  /** The create is over: a copy is made (or failed), and a failed create holds nothing. */
  settle(opened: boolean): void {
    if (!this.persist) this.locks.releaseCopy(this.key);
    else if (!opened) this.locks.releaseExclusive(this.key);
  }

  /** The session that saved to the context has ended (nothing to do for a copy). */
  release(): void {
    if (this.persist) this.locks.releaseExclusive(this.key);
  }
}

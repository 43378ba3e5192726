import type { CreateBrowserRequest } from '@browserdeck/domain';
import type { ProfileChoice } from '../launch/BrowserLaunchSettings.ts';
import { type ContextLocks, contextKey } from './ContextLocks.ts';
import { contextProfileDir } from './contextProfileDir.ts';
import type { TemporaryProfiles } from './TemporaryProfiles.ts';

/**
 * What a claim on a shared context (`SharedContextProfiles`) does beyond this instance: let go of
 * the cluster-wide hold when the create fails, and save the profile when the session ends.
 */
export interface SharedClaimSteps {
  /** The create failed (refused, or its browser did not open): the hold is let go, nothing saved. */
  abandon(): Promise<void>;
  /** A session that does not save has its copy (or its create failed): the folder is not read any more. */
  copied(): void;
  /** The session that saved to the context has ended and its browser is gone: store its profile. */
  save(): Promise<void>;
}

/**
 * A create's hold on the context profile it opens (http-api.md §7): a session that saves to the
 * context (`contextPersist`) holds it alone until it ends; one that does not runs on a copy, and
 * holds the context only while the copy is made. On this instance that is a `ContextLocks` lock;
 * a shared context is also held across the cluster (`SharedClaimSteps`), its profile a folder
 * unpacked from the shared store, which a saving session runs on a staged copy of.
 */
export class ContextClaim {
  private readonly key: string;
  private readonly dir: string;
  private readonly persist: boolean;
  private readonly locks: ContextLocks;
  private readonly shared: SharedClaimSteps | null;

  private constructor(
    key: string,
    dir: string,
    persist: boolean,
    locks: ContextLocks,
    shared: SharedClaimSteps | null,
  ) {
    this.key = key;
    this.dir = dir;
    this.persist = persist;
    this.locks = locks;
    this.shared = shared;
  }

  /** The claim a create makes; null when it opens no context. */
  static of(request: CreateBrowserRequest, dataDir: string, locks: ContextLocks): ContextClaim | null {
    const { contextId, projectId, contextPersist } = request;
    if (contextId === null) return null;
    const dir = contextProfileDir(dataDir, projectId, contextId);
    return new ContextClaim(contextKey(projectId, contextId), dir, contextPersist, locks, null);
  }

  /** The claim on a shared context whose profile is unpacked at `dir` (`SharedContextProfiles`). */
  static shared(
    request: CreateBrowserRequest & { contextId: string },
    dir: string,
    locks: ContextLocks,
    steps: SharedClaimSteps,
  ): ContextClaim {
    const { contextId, projectId, contextPersist } = request;
    return new ContextClaim(contextKey(projectId, contextId), dir, contextPersist, locks, steps);
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
    if (!this.persist) return { kind: 'copy', profiles, from: this.dir };
    // A shared profile is saved from its folder when the browser is gone: it never runs in place.
    return { kind: 'persistent', dir: this.dir, staged: this.shared !== null };
  }

  /** The create is over: a copy is made (or failed), and a failed create holds nothing. */
  async settle(opened: boolean): Promise<void> {
    if (!this.persist) {
      this.locks.releaseCopy(this.key);
      this.shared?.copied();
    } else if (!opened) {
      this.locks.releaseExclusive(this.key);
      await this.shared?.abandon();
    }
  }

  /** The create was refused before it took the claim: what the claim holds beyond this instance goes. */
  async abandon(): Promise<void> {
    await this.shared?.abandon();
  }

  /**
   * The session that saved to the context has ended (nothing to do for a copy); a shared profile is
   * stored first, and this instance's lock kept until it is.
   */
  release(): Promise<void> | undefined {
    if (!this.persist) return undefined;
    if (!this.shared) {
      this.locks.releaseExclusive(this.key);
      return undefined;
    }
    return this.shared.save().finally(() => this.locks.releaseExclusive(this.key));
  }
}

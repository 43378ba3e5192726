import { randomUUID } from 'node:crypto';
import {
  type Clock,
  type CreateBrowserRequest,
  type Logger,
  NotFoundError,
  TIMEOUT_MIN_SEC,
} from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import {
  type ContextHolder,
  type ContextRecord,
  type ContextRecords,
  type ContextSave,
  isHeld,
} from '../../shared-state/ContextRecords.ts';
import { contextBusyError } from '../session/admissionError.ts';
import { ContextClaim } from './ContextClaim.ts';
import type { ContextLocks } from './ContextLocks.ts';
import type { ContextProfileCache } from './ContextProfileCache.ts';
import { importContextFolders } from './importContextFolders.ts';
import { packProfile } from './packProfile.ts';
import { profileBlobKey } from './profileBlobKey.ts';
import type { SharedContextStore } from './SharedContextStore.ts';

/** `CONTEXT_MAX_MB`'s default: a stored profile's zip is at most 64 MiB. */
export const CONTEXT_MAX_BYTES_DEFAULT = 64 * 1024 * 1024;

/** How long past its session's deadline a hold lasts, when its instance could not let go of it. */
const HOLD_MARGIN_MS = 2 * 60_000;

/** Tries of a let-go that the database refused (a blip): a hold left would refuse the context. */
const LET_GO_TRIES = 3;

/**
 * Context profiles shared by every instance on one database (SPEC §16): the profile is a zip in the
 * `BlobStore`, one per save (`version`), and this instance keeps each save it opened unpacked
 * (`ContextProfileCache`), so a second session on the same save opens from local disk. A session that
 * does not save copies the unpacked folder; one that saves holds the context across the cluster
 * (`ContextRecords.hold`, until its deadline and a margin), runs on a staged copy, and when its
 * browser is gone the folder it was written back to is zipped and stored as the next version (within
 * `maxBytes`; a larger one is not stored and the context keeps its last save). While a session saves
 * to a context, no other session opens it, on any instance: the next save would replace what it read.
 */
export class SharedContextProfiles {
  private readonly deps: {
    records: ContextRecords;
    /** Where a context a session names before it exists is made. */
    store: SharedContextStore;
    blobs: BlobStore;
    locks: ContextLocks;
    cache: ContextProfileCache;
    dataDir: string;
    instanceId: string;
    clock: Clock;
    logger: Logger;
    maxBytes: number;
  };

  constructor(deps: SharedContextProfiles['deps']) {
    this.deps = deps;
  }

  /**
   * At the provider's start: the unpacked profiles of an earlier run go, and the profile folders an
   * earlier version kept in the data folder are stored. The holds a previous run's sessions left are
   * let go of by the instance's membership as it joins (`InstanceHoldings`), as a lost instance's
   * are by the survivors; any other lapses with its session's deadline.
   */
  async start(): Promise<void> {
    await this.deps.cache.clear();
    await importContextFolders(
      this.deps.dataDir,
      (p, c, dir) => this.importFolder(p, c, dir),
      this.deps.logger,
    );
  }

  /**
   * The claim of a create that opens a context: the busy refusal while a session saves to it; its
   * profile unpacked here. A name the project has no context by is a new one (within the project's
   * bound); the Browserbase API asks first (404). A claim that saves holds the context across the
   * cluster from now on, until the claim is abandoned or its session saved.
   */
  async claim(request: CreateBrowserRequest): Promise<ContextClaim | null> {
    const { contextId, projectId, contextPersist } = request;
    if (contextId === null) return null;
    this.deps.cache.baseOf(projectId, contextId); // a contextId that is no folder name: 400, before anything
    const { records, clock, instanceId } = this.deps;
    const deadline = Math.max(request.timeoutSec, TIMEOUT_MIN_SEC) * 1000 + HOLD_MARGIN_MS;
    const holder: ContextHolder = {
      sessionId: request.sessionId,
      instanceId,
      until: new Date(clock.now().getTime() + deadline),
    };
    const open = () =>
      contextPersist
        ? records.hold(projectId, contextId, holder, clock.now())
        : records.get(projectId, contextId);
    let found = await open();
    if (found === null) {
      await this.deps.store.ensure(projectId, contextId);
      found = await open();
    }
    if (found === null) throw new NotFoundError('Context');
    if (found === 'busy' || (!contextPersist && isHeld(found, clock.now())))
      throw contextBusyError(contextId);
    const record = found;
    const letGoUnsaved = async () => {
      if (contextPersist) await this.letGo(record, holder, null);
    };
    const profile = await this.deps.cache.open(record, contextPersist).catch(async (error: unknown) => {
      await letGoUnsaved();
      throw error;
    });
    return ContextClaim.shared({ ...request, contextId }, profile.dir, this.deps.locks, {
      abandon: async () => {
        profile.done();
        await letGoUnsaved();
      },
      copied: () => profile.done(),
      save: async () => {
        try {
          await this.save(record, holder, profile.dir);
        } finally {
          profile.done();
        }
      },
    });
  }

  /**
   * The saving session's browser is gone and its profile written back to `dir`: the folder is zipped
   * and stored as the next version, the hold let go of with it, the last version's blob removed, and
   * the folder kept as the new version's. When it cannot be stored (too large, the database down),
   * the context keeps its last save and the folder goes. Never rejects: a failure is logged.
   */
  private async save(record: ContextRecord, holder: ContextHolder, dir: string): Promise<void> {
    const { blobs, cache, logger } = this.deps;
    const stored = await this.store(record, holder, dir).catch((error: unknown) => {
      logger.warn(
        { err: error, contextId: record.id, sessionId: holder.sessionId },
        'local provider: a session’s context profile could not be stored; the context keeps its last save',
      );
      return null;
    });
    try {
      if (stored) {
        if (record.version !== null) await blobs.delete(profileBlobKey(record, record.version));
        await cache.keep(record, dir, stored.version);
      } else await cache.drop(dir);
    } catch (error) {
      logger.warn(
        { err: error, contextId: record.id },
        'local provider: could not tidy a context’s profiles',
      );
    }
  }

  /**
   * Zips `dir`, stores it as the context's next save and lets go of `holder`'s hold with it: the
   * save, or null when the hold was no longer `holder`'s (nothing stored then). Without a save the
   * hold is let go of too, and the error passed on.
   */
  private async store(
    record: ContextRecord,
    holder: ContextHolder,
    dir: string,
  ): Promise<ContextSave | null> {
    const { blobs, clock } = this.deps;
    let save: ContextSave;
    try {
      const zip = await packProfile(dir, this.deps.maxBytes);
      save = { version: randomUUID(), size: zip.byteLength, updatedAt: clock.now() };
      await blobs.put(profileBlobKey(record, save.version), zip);
    } catch (error) {
      await this.letGo(record, holder, null);
      throw error;
    }
    if (await this.letGo(record, holder, save)) return save;
    await blobs.delete(profileBlobKey(record, save.version)).catch(() => {});
    return null;
  }

  /** A folder an earlier version kept, stored as the context's first save (unless it has one). */
  private async importFolder(projectId: string, contextId: string, dir: string): Promise<boolean> {
    const { records, clock, instanceId } = this.deps;
    await this.deps.store.ensure(projectId, contextId);
    const holder = {
      sessionId: `import-${randomUUID()}`,
      instanceId,
      until: new Date(clock.now().getTime() + HOLD_MARGIN_MS),
    };
    const held = await records.hold(projectId, contextId, holder, clock.now());
    if (held === null || held === 'busy') return false;
    // Stored already (an import that could not remove its folder): the stored save stands.
    if (held.version !== null) return this.letGo(held, holder, null);
    return (await this.store(held, holder, dir)) !== null;
  }

  /**
   * Lets go of the hold (recording `saved`); false when it was no longer ours (or the database kept
   * refusing: the hold then lapses with its session's deadline). Never rejects.
   */
  private async letGo(
    record: ContextRecord,
    holder: ContextHolder,
    saved: ContextSave | null,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        const kept = await this.deps.records.letGo(record.projectId, record.id, holder, saved);
        if (!kept && saved)
          this.deps.logger.warn(
            { contextId: record.id, sessionId: holder.sessionId },
            'local provider: a context was let go of while its session ran (its instance was taken for lost); this save is dropped',
          );
        return kept;
      } catch (error) {
        if (attempt < LET_GO_TRIES) {
          await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
          continue;
        }
        this.deps.logger.error(
          { err: error, contextId: record.id, sessionId: holder.sessionId },
          'local provider: could not let go of a context; it stays held until its session’s deadline passes',
        );
        return false;
      }
    }
  }
}

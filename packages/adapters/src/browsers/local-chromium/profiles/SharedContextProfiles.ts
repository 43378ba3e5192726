import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Clock, type CreateBrowserRequest, type Logger, NotFoundError } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import type { ContextHolder, ContextRecord, ContextRecords } from '../../shared-state/ContextRecords.ts';
import { contextBusyError } from '../session/admissionError.ts';
import { ContextClaim } from './ContextClaim.ts';
import { type ContextLocks, contextKey } from './ContextLocks.ts';
import { contextProfileDir } from './contextProfileDir.ts';
import { packProfile } from './packProfile.ts';
import { profileBlobKey } from './profileBlobKey.ts';
import type { SharedContextStore } from './SharedContextStore.ts';
import { unpackProfile } from './unpackProfile.ts';

/** `CONTEXT_MAX_MB`'s default: a stored profile's zip is at most 64 MiB. */
export const CONTEXT_MAX_BYTES_DEFAULT = 64 * 1024 * 1024;

/** How much larger than its zip a stored profile may inflate. */
const INFLATE_FACTOR = 8;

const REMOVE = { recursive: true, force: true, maxRetries: 10, retryDelay: 100 } as const;

/**
 * Context profiles shared by every instance on one database (SPEC §16): the profile is a zip in the
 * `BlobStore`, one per save (`version`), and this instance keeps each version it opened unpacked under
 * `<dataDir>/context-cache`, so a second session on the same save opens from local disk. A session that
 * does not save copies the unpacked folder; one that saves holds the context across the cluster
 * (`ContextRecords.hold`), runs on a staged copy, and when its browser is gone the folder it was written
 * back to is zipped and stored as the next version (within `maxBytes`; a larger one is not stored and
 * the context keeps its last save). While a session saves to a context, no other session opens it, on
 * any instance: the next save would replace what it read.
 */
export class SharedContextProfiles {
  private readonly deps: {
    records: ContextRecords;
    /** Where a context a session names before it exists is made. */
    store: SharedContextStore;
    blobs: BlobStore;
    locks: ContextLocks;
    dataDir: string;
    instanceId: string;
    clock: Clock;
    logger: Logger;
    maxBytes?: number | undefined;
  };
  private readonly cacheDir: string;
  private readonly maxBytes: number;
  /** Versions being unpacked, by folder: two creates opening one save unpack it once. */
  private readonly unpacking = new Map<string, Promise<void>>();

  constructor(deps: SharedContextProfiles['deps']) {
    this.deps = deps;
    this.cacheDir = join(deps.dataDir, 'context-cache');
    this.maxBytes = deps.maxBytes ?? CONTEXT_MAX_BYTES_DEFAULT;
  }

  /**
   * At the provider's start: the unpacked profiles of an earlier run go (a saving session's folder
   * may be half written back). The holds its sessions left are let go of by the instance's
   * membership as it joins (`InstanceHoldings`), as a lost instance's are by the survivors.
   */
  async start(): Promise<void> {
    await rm(this.cacheDir, REMOVE);
    await this.importFolders();
  }

  /**
   * Profiles an earlier version kept as folders of this data folder (`<dataDir>/contexts/<project>/
   * <context>`) are stored once as their contexts' first save, and their folders removed, so an
   * upgrade loses no context. One that cannot be (its project is gone, it is too large) stays where
   * it is, with a warning.
   */
  private async importFolders(): Promise<void> {
    const root = join(this.deps.dataDir, 'contexts');
    for (const projectId of await readdir(root).catch(() => [])) {
      for (const contextId of await readdir(join(root, projectId)).catch(() => [])) {
        const dir = join(root, projectId, contextId);
        try {
          await this.importFolder(projectId, contextId, dir);
          await rm(dir, REMOVE);
        } catch (error) {
          this.deps.logger.warn(
            { err: error, projectId, contextId, dir },
            'local provider: a context profile folder from an earlier version could not be stored; it is left in place',
          );
        }
      }
      // Gone once every context in it is stored; kept (not empty) otherwise.
      await rmdir(join(root, projectId)).catch(() => {});
    }
  }

  private async importFolder(projectId: string, contextId: string, dir: string): Promise<void> {
    const { records, store, blobs, clock } = this.deps;
    await store.ensure(projectId, contextId);
    const holder: ContextHolder = { sessionId: `import-${randomUUID()}`, instanceId: this.deps.instanceId };
    const held = await records.hold(projectId, contextId, holder);
    if (held === null || held === 'busy') throw new Error(`the context is ${held ?? 'gone'}`);
    if (held.version !== null) {
      // Stored already (an import that could not remove its folder): the stored save stands.
      await records.letGo(projectId, contextId, holder, null);
      return;
    }
    const version = randomUUID();
    try {
      const zip = await packProfile(dir, this.maxBytes);
      await blobs.put(profileBlobKey(held, version), zip);
      await records.letGo(projectId, contextId, holder, {
        version,
        size: zip.byteLength,
        updatedAt: clock.now(),
      });
    } catch (error) {
      await records.letGo(projectId, contextId, holder, null);
      throw error;
    }
  }

  /**
   * The claim of a create that opens a context: 404 when the project has none with that id, the
   * busy refusal while a session saves to it; its profile unpacked here. A claim that saves holds
   * the context across the cluster from now on, until the claim is abandoned or its session saved.
   */
  async claim(request: CreateBrowserRequest): Promise<ContextClaim | null> {
    const { contextId, projectId, contextPersist } = request;
    if (contextId === null) return null;
    const base = contextProfileDir(this.cacheDir, projectId, contextId);
    const { records, instanceId } = this.deps;
    const holder: ContextHolder = { sessionId: request.sessionId, instanceId };
    const open = () =>
      contextPersist ? records.hold(projectId, contextId, holder) : records.get(projectId, contextId);
    let found = await open();
    // A name the project has no context by is a new profile (the Browserbase API asks first: 404).
    if (found === null) {
      await this.deps.store.ensure(projectId, contextId);
      found = await open();
    }
    if (found === null) throw new NotFoundError('Context');
    if (found === 'busy' || (!contextPersist && found.holder !== null)) throw contextBusyError(contextId);
    let dir: string;
    try {
      dir = await this.unpacked(found, base, contextPersist);
    } catch (error) {
      if (contextPersist) await this.letGo(found, holder, null);
      throw error;
    }
    return ContextClaim.shared({ ...request, contextId }, dir, this.deps.locks, {
      abandon: async () => {
        if (contextPersist) await this.letGo(found, holder, null);
      },
      save: () => this.save(found, holder, base, dir),
    });
  }

  /**
   * The folder of the context's stored profile on this instance, unpacked from its blob unless it
   * is here already. A context never saved has none: a copy starts empty, and a saving session gets
   * a new folder of its own.
   */
  private async unpacked(record: ContextRecord, base: string, persist: boolean): Promise<string> {
    if (record.version === null) return join(base, persist ? `new-${randomUUID()}` : 'empty');
    const dir = join(base, record.version);
    let unpacking = this.unpacking.get(dir);
    if (!unpacking) {
      unpacking = this.unpack(record, record.version, base, dir).finally(() => this.unpacking.delete(dir));
      this.unpacking.set(dir, unpacking);
    }
    await unpacking;
    return dir;
  }

  private async unpack(record: ContextRecord, version: string, base: string, dir: string): Promise<void> {
    if ((await stat(dir).catch(() => null))?.isDirectory()) return;
    const zip = await this.deps.blobs.get(profileBlobKey(record, version));
    const incoming = join(base, `.incoming-${randomUUID()}`);
    try {
      if (zip) await unpackProfile(zip, incoming, Math.max(this.maxBytes, zip.byteLength) * INFLATE_FACTOR);
      else
        this.deps.logger.warn(
          { contextId: record.id, version },
          'local provider: a context’s stored profile is missing; the session starts from an empty one',
        );
      await rename(incoming, dir).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    } finally {
      await rm(incoming, REMOVE);
    }
    await this.forgetOtherVersions(record, base, dir);
  }

  /** Versions of the context unpacked earlier, which no session here reads now, go. */
  private async forgetOtherVersions(record: ContextRecord, base: string, keep: string): Promise<void> {
    if (!this.deps.locks.canTake(contextKey(record.projectId, record.id), true)) return;
    for (const name of await readdir(base).catch(() => [])) {
      const dir = join(base, name);
      if (dir !== keep && !name.startsWith('.') && !this.unpacking.has(dir)) await rm(dir, REMOVE);
    }
  }

  /**
   * The saving session's browser is gone and its profile written back to `dir`: the folder is zipped
   * and stored as the next version, the hold let go with it, the last version's blob removed, and the
   * folder kept as the new version's. When it cannot be stored (too large, the database down), the
   * context keeps its last save and the folder goes. Never rejects: a failure is logged.
   */
  private async save(record: ContextRecord, holder: ContextHolder, base: string, dir: string): Promise<void> {
    const { blobs, clock, logger } = this.deps;
    const version = randomUUID();
    let saved: { version: string; size: number; updatedAt: Date } | null = null;
    try {
      const zip = await packProfile(dir, this.maxBytes);
      await blobs.put(profileBlobKey(record, version), zip);
      saved = { version, size: zip.byteLength, updatedAt: clock.now() };
    } catch (error) {
      logger.warn(
        { err: error, contextId: record.id, sessionId: holder.sessionId },
        'local provider: a session’s context profile could not be stored; the context keeps its last save',
      );
    }
    const kept = await this.letGo(record, holder, saved);
    try {
      if (saved && kept) {
        if (record.version !== null) await blobs.delete(profileBlobKey(record, record.version));
        await rename(dir, join(base, version));
      } else {
        if (saved) await blobs.delete(profileBlobKey(record, version));
        await rm(dir, REMOVE);
      }
    } catch (error) {
      logger.warn(
        { err: error, contextId: record.id },
        'local provider: could not tidy a context’s profiles',
      );
      await rm(dir, REMOVE).catch(() => {});
    }
  }

  /** Lets go of the hold (recording `saved`); false when it was no longer ours. Never rejects. */
  private async letGo(
    record: ContextRecord,
    holder: ContextHolder,
    saved: { version: string; size: number; updatedAt: Date } | null,
  ): Promise<boolean> {
    try {
      const kept = await this.deps.records.letGo(record.projectId, record.id, holder, saved);
      if (!kept && saved)
        this.deps.logger.warn(
          { contextId: record.id, sessionId: holder.sessionId },
          'local provider: a context was let go of while its session ran (its instance was taken for lost); this save is dropped',
        );
      return kept;
    } catch (error) {
      this.deps.logger.error(
        { err: error, contextId: record.id, sessionId: holder.sessionId },
        'local provider: could not let go of a context; it stays held until this instance restarts or is taken for lost',
      );
      return false;
    }
  }
}

import { randomUUID } from 'node:crypto';
import type { BrowserContextInfo, BrowserContextStore, Clock } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import type { ContextRecord, ContextRecords } from '../../shared-state/ContextRecords.ts';
import type { ContextProfileCache } from './ContextProfileCache.ts';
import { contextInUseError, contextLimitError } from './contextErrors.ts';
import { profileBlobKey, projectBlobPrefix } from './profileBlobKey.ts';

/** A time after every save: `deleteBefore` it removes all of a prefix. */
const EVERY_SAVE = new Date(8.64e15);

/**
 * The local provider's contexts when they are shared by every instance on one database: the records
 * (`ContextRecords`) say which contexts exist and who holds one, the profiles are blobs
 * (`BlobStore`). A context a session saves to, on any instance, is not deleted: `context_in_use`.
 */
export class SharedContextStore implements BrowserContextStore {
  private readonly records: ContextRecords;
  private readonly blobs: BlobStore;
  private readonly cache: ContextProfileCache;
  private readonly clock: Clock;
  private readonly maxPerProject: number;

  constructor(deps: {
    records: ContextRecords;
    blobs: BlobStore;
    /** This instance's unpacked saves: a deleted context's go from its disk. */
    cache: ContextProfileCache;
    clock: Clock;
    maxPerProject: number;
  }) {
    this.records = deps.records;
    this.blobs = deps.blobs;
    this.cache = deps.cache;
    this.clock = deps.clock;
    this.maxPerProject = deps.maxPerProject;
  }

  /** Makes a context, while the project has fewer than `maxPerProject` (else `context_limit_reached`). */
  async create(projectId: string): Promise<BrowserContextInfo> {
    const record = { id: randomUUID(), projectId, createdAt: this.clock.now() };
    await this.add(record);
    return { ...record, updatedAt: record.createdAt };
  }

  /** Makes the context `contextId` unless the project has it (a session naming a new profile). */
  async ensure(projectId: string, contextId: string): Promise<void> {
    await this.add({ id: contextId, projectId, createdAt: this.clock.now() });
  }

  private async add(record: { id: string; projectId: string; createdAt: Date }): Promise<void> {
    if ((await this.records.create(record, this.maxPerProject)) === 'limit_reached')
      throw contextLimitError(this.maxPerProject);
  }

  async get(projectId: string, contextId: string): Promise<BrowserContextInfo | null> {
    const record = await this.records.get(projectId, contextId);
    return record ? infoOf(record) : null;
  }

  async delete(projectId: string, contextId: string): Promise<boolean> {
    const deleted = await this.records.delete(projectId, contextId, this.clock.now());
    if (deleted === null) return false;
    if (deleted === 'busy') throw contextInUseError(contextId);
    if (deleted.version !== null) await this.blobs.delete(profileBlobKey(deleted, deleted.version));
    // Other instances' unpacked copies go when they open a newer save, or at their restart.
    await this.cache.forget(projectId, contextId).catch(() => {});
    return true;
  }

  /** The project's rows went with it (`on delete cascade`); its stored profiles go now. */
  async deleteProject(projectId: string): Promise<void> {
    await this.blobs.deleteBefore(projectBlobPrefix(projectId), EVERY_SAVE);
    await this.cache.forgetProject(projectId).catch(() => {});
  }
}

function infoOf(record: ContextRecord): BrowserContextInfo {
  return {
    id: record.id,
    projectId: record.projectId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

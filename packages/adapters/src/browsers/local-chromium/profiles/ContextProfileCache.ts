import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import type { ContextRecord } from '../../shared-state/ContextRecords.ts';
import { contextProfileDir } from './contextProfileDir.ts';
import { PROFILE_INFLATE_FACTOR } from './packProfile.ts';
import { profileBlobKey } from './profileBlobKey.ts';
import { unpackProfile } from './unpackProfile.ts';

const REMOVE = { recursive: true, force: true, maxRetries: 10, retryDelay: 100 } as const;

/** A folder this cache handed out, and the call that says it is no longer read. */
export interface CachedProfile {
  readonly dir: string;
  done(): void;
}

/**
 * The shared contexts' saves this instance opened, unpacked under
 * `<dataDir>/context-cache/<instanceId>/contexts/<project>/<context>/<version>` (its own folder: two
 * processes on one data folder never touch each other's). A save never changes under its version, so
 * a folder once unpacked is good until a newer save replaces it; an older one goes once no session
 * here reads it. A create unpacking a save another is unpacking waits for that one.
 */
export class ContextProfileCache {
  readonly dir: string;
  private readonly deps: { blobs: BlobStore; logger: Logger; maxBytes: number };
  private readonly unpacking = new Map<string, Promise<void>>();
  /** Folders handed out and not yet done with, by how many claims. */
  private readonly reading = new Map<string, number>();

  constructor(deps: {
    dataDir: string;
    instanceId: string;
    blobs: BlobStore;
    logger: Logger;
    maxBytes: number;
  }) {
    this.dir = join(deps.dataDir, 'context-cache', deps.instanceId);
    this.deps = deps;
  }

  /** At start: what an earlier run unpacked goes (a saving session's folder may be half written back). */
  async clear(): Promise<void> {
    await rm(this.dir, REMOVE);
  }

  /** Where the saves of a context are unpacked (`contextId` checked as a folder name). */
  baseOf(projectId: string, contextId: string): string {
    return contextProfileDir(this.dir, projectId, contextId);
  }

  /**
   * The folder of the record's save, unpacked from its blob unless it is here already; a context
   * never saved has none (an empty folder name: a copy starts empty, and `fresh` gives a saving
   * session a new folder of its own). A save that is missing or cannot be unpacked starts empty,
   * with a warning: a context that never opens again would be worse.
   */
  async open(record: ContextRecord, fresh: boolean): Promise<CachedProfile> {
    const base = this.baseOf(record.projectId, record.id);
    const dir = join(base, record.version ?? (fresh ? `new-${randomUUID()}` : 'empty'));
    this.reading.set(dir, (this.reading.get(dir) ?? 0) + 1);
    try {
      if (record.version !== null) await this.unpackOnce(record, record.version, dir);
    } catch (error) {
      this.release(dir);
      throw error;
    }
    await this.forgetOthers(base, dir);
    let done = false;
    return {
      dir,
      done: () => {
        if (!done) this.release(dir);
        done = true;
      },
    };
  }

  /** A saving session's folder now holds `version`: it becomes that save's folder. */
  async keep(record: ContextRecord, dir: string, version: string): Promise<void> {
    await rename(dir, join(this.baseOf(record.projectId, record.id), version)).catch(
      async (error: NodeJS.ErrnoException) => {
        // Unpacked meanwhile by a create here (a save never changes): that folder stands.
        if (error.code !== 'EEXIST' && error.code !== 'ENOTEMPTY') throw error;
        await rm(dir, REMOVE);
      },
    );
  }

  /** Removes a folder that matches no save (a save that could not be stored). */
  async drop(dir: string): Promise<void> {
    await rm(dir, REMOVE);
  }

  /** A deleted context's saves go from this instance's disk, but for folders a session still reads. */
  async forget(projectId: string, contextId: string): Promise<void> {
    await this.forgetOthers(this.baseOf(projectId, contextId), null);
  }

  /** A deleted project's unpacked saves go (its sessions were released first). */
  async forgetProject(projectId: string): Promise<void> {
    await rm(dirname(this.baseOf(projectId, 'x')), REMOVE);
  }

  private release(dir: string): void {
    const left = (this.reading.get(dir) ?? 1) - 1;
    if (left > 0) this.reading.set(dir, left);
    else this.reading.delete(dir);
  }

  private async unpackOnce(record: ContextRecord, version: string, dir: string): Promise<void> {
    let unpacking = this.unpacking.get(dir);
    if (!unpacking) {
      unpacking = this.unpack(record, version, dir).finally(() => this.unpacking.delete(dir));
      this.unpacking.set(dir, unpacking);
    }
    await unpacking;
  }

  private async unpack(record: ContextRecord, version: string, dir: string): Promise<void> {
    if ((await stat(dir).catch(() => null))?.isDirectory()) return;
    const incoming = `${dir}.incoming-${randomUUID()}`;
    try {
      const zip = await this.deps.blobs.get(profileBlobKey(record, version));
      if (zip) {
        const bound = Math.max(this.deps.maxBytes, zip.byteLength) * PROFILE_INFLATE_FACTOR;
        await unpackProfile(zip, incoming, bound).catch(async (error: unknown) => {
          this.deps.logger.error(
            { err: error, contextId: record.id, version },
            'local provider: a context’s stored profile could not be unpacked; the session starts from an empty one',
          );
          await rm(incoming, REMOVE);
        });
      } else
        this.deps.logger.warn(
          { contextId: record.id, version },
          'local provider: a context’s stored profile is missing; the session starts from an empty one',
        );
      await rename(incoming, dir).catch((error: NodeJS.ErrnoException) => {
        // Nothing unpacked (an empty start), or the folder is there already (a save's own): fine.
        if (!['ENOENT', 'EEXIST', 'ENOTEMPTY'].includes(error.code ?? '')) throw error;
      });
    } finally {
      await rm(incoming, REMOVE);
    }
  }

  /** Folders under `base` but `keep` that no claim reads and no unpack writes go. */
  private async forgetOthers(base: string, keep: string | null): Promise<void> {
    for (const name of await readdir(base).catch(() => [])) {
      const dir = join(base, name);
      if (dir === keep || this.reading.has(dir) || this.unpacking.has(dir) || name.includes('.incoming-'))
        continue;
      await rm(dir, REMOVE);
    }
  }
}

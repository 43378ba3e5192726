import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type BrowserContextInfo, type BrowserContextStore, ValidationError } from '@browserdeck/domain';
import { type ContextLocks, contextKey } from './ContextLocks.ts';
import { contextInUseError, contextLimitError } from './contextErrors.ts';
import { contextProfileDir } from './contextProfileDir.ts';

/**
 * The local provider's contexts: the profile folders `<dataDir>/contexts/<projectId>/<contextId>`
 * (`contextProfileDir`). A context exists while its folder does; `createdAt` is the folder's birth
 * time (its change time where the file system records none) and `updatedAt` its modification time,
 * which moves whenever Chromium replaces a file of its profile. A context a running session saves
 * to (or one being copied for a session that does not) is not deleted: `context_in_use`.
 */
export class LocalContextStore implements BrowserContextStore {
  private readonly dataDir: string;
  private readonly locks: ContextLocks;
  private readonly maxPerProject: number;

  constructor(options: { dataDir: string; locks: ContextLocks; maxPerProject?: number }) {
    this.dataDir = options.dataDir;
    this.locks = options.locks;
    this.maxPerProject = options.maxPerProject ?? Number.POSITIVE_INFINITY;
  }

  /** Makes a context, while the project has fewer than `maxPerProject` (else `context_limit_reached`). */
  async create(projectId: string): Promise<BrowserContextInfo> {
    const id = randomUUID();
    const dir = contextProfileDir(this.dataDir, projectId, id);
    const held = await readdir(dirname(dir)).catch(() => []);
    if (held.length >= this.maxPerProject) throw contextLimitError(this.maxPerProject);
    await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
    await mkdir(dir, { mode: 0o700 });
    const info = await this.get(projectId, id);
    if (!info) throw new Error(`the context folder ${dir} vanished as it was created`);
    return info;
  }

  async get(projectId: string, contextId: string): Promise<BrowserContextInfo | null> {
    const dir = this.dirOf(projectId, contextId);
    const found = dir === null ? null : await stat(dir).catch(() => null);
    if (!found?.isDirectory()) return null;
    return {
      id: contextId,
      projectId,
      createdAt: found.birthtimeMs > 0 ? found.birthtime : found.ctime,
      updatedAt: found.mtime,
    };
  }

  async delete(projectId: string, contextId: string): Promise<boolean> {
    const dir = this.dirOf(projectId, contextId);
    if (dir === null || !(await this.get(projectId, contextId))) return false;
    const key = contextKey(projectId, contextId);
    if (!this.locks.takeExclusive(key)) throw contextInUseError(contextId);
    try {
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      return true;
    } finally {
      this.locks.releaseExclusive(key);
    }
  }

  /** A deleted project's profile folders go (its sessions were released first). */
  async deleteProject(projectId: string): Promise<void> {
    const dir = this.dirOf(projectId, 'x');
    if (dir !== null)
      await rm(dirname(dir), { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }

  /** The context's folder; null for an id that cannot name one (so it names no context). */
  private dirOf(projectId: string, contextId: string): string | null {
    try {
      return contextProfileDir(this.dataDir, projectId, contextId);
    } catch (error) {
      if (error instanceof ValidationError) return null;
      throw error;
    }
  }
}

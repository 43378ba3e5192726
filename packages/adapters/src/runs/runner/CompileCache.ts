import { chown, cp, lstat, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Node's compile cache of the runner's code and playwright-core (`module.enableCompileCache`),
 * which saves a good part of each run's start. Every run's process gets a copy of its own in its
 * folder (the only folder it may write); the shared copy is taken once, from a process that has
 * loaded playwright-core and run nothing else (no script has run in it), and only this service
 * writes it.
 */
export class CompileCache {
  private readonly dir: string;
  private seeded: boolean;
  private harvesting = false;

  private constructor(dir: string, seeded: boolean) {
    this.dir = dir;
    this.seeded = seeded;
  }

  /** The cache kept in `dir` (which need not exist yet). */
  static async at(dir: string): Promise<CompileCache> {
    const seeded = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return new CompileCache(dir, seeded);
  }

  /** True until the shared copy exists: the next ready process's cache should be `harvest`ed. */
  get wanted(): boolean {
    return !this.seeded && !this.harvesting;
  }

  /** Gives a run's process its copy at `target` (empty when there is none yet), owned by `owner`. */
  async seed(target: string, owner: { uid: number; gid: number } | null): Promise<void> {
    if (this.seeded) await cp(this.dir, target, { recursive: true, filter: regularOrDir });
    else await mkdir(target);
    if (owner) await chownTree(target, owner);
  }

  /** Keeps `from` (a ready process's cache, before it was given a job) as the shared copy. */
  async harvest(from: string): Promise<void> {
    if (!this.wanted) return;
    this.harvesting = true;
    const partial = `${this.dir}.${process.pid}.partial`;
    try {
      await rm(partial, { recursive: true, force: true });
      await cp(from, partial, { recursive: true, filter: regularOrDir });
      await rename(partial, this.dir);
      this.seeded = true;
    } catch {
      await rm(partial, { recursive: true, force: true });
    } finally {
      this.harvesting = false;
    }
  }
}

async function regularOrDir(source: string): Promise<boolean> {
  const info = await lstat(source).catch(() => null);
  return info !== null && (info.isFile() || info.isDirectory());
}

async function chownTree(dir: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(dir, owner.uid, owner.gid);
  for (const entry of await readdir(dir, { recursive: true }))
    await chown(join(dir, entry), owner.uid, owner.gid);
}

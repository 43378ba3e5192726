import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@browserdeck/domain';
import { isProcessAlive } from './isProcessAlive.ts';

const run = promisify(execFile);
/** The tmpfs source name: names the service that mounted it, so a later one can sweep what it left. */
const SOURCE_PREFIX = 'browserdeck-session-';
const UNMOUNT_DEADLINE_MS = 5_000;

/**
 * Size-limited writable space for browsers: a tmpfs of `bytes` mounted (on the host, by the
 * service, so it needs root) on each profile folder before the browser starts, and unmounted once
 * it is gone. Writes past the size fail with ENOSPC inside the browser (a download is interrupted)
 * and never reach the host's disk. tmpfs pages live in RAM and are charged to the memory cgroup of
 * the browser that wrote them, so the memory limit bounds them too.
 */
export class SessionDisks {
  readonly bytes: number;
  private readonly logger: Logger;
  private readonly mounted = new Set<string>();

  private constructor(bytes: number, logger: Logger) {
    this.bytes = bytes;
    this.logger = logger;
  }

  /** Null with the reason when the limit cannot be in force here (not root); sweeps stale mounts. */
  static async setUp(options: {
    bytes: number;
    logger: Logger;
  }): Promise<{ disks: SessionDisks; problem: null } | { disks: null; problem: string }> {
    if (process.getuid?.() !== 0)
      return {
        disks: null,
        problem: 'mounting a size-limited tmpfs for each profile needs the service to run as root',
      };
    await sweepStaleMounts();
    const refused = await probeMount();
    if (refused)
      return {
        disks: null,
        problem:
          `${refused}; in a container it needs ` +
          'CAP_SYS_ADMIN (docker/podman run --cap-add=SYS_ADMIN, docs/deploy.md)',
      };
    return { disks: new SessionDisks(options.bytes, options.logger), problem: null };
  }

  /** Mounts a fresh, empty tmpfs of `bytes` on `dir` (mode 0700, owned by `owner` when given). */
  async mount(dir: string, owner: { uid: number; gid: number } | null): Promise<void> {
    const options = [`size=${this.bytes}`, 'mode=0700', 'nosuid', 'nodev'];
    if (owner) options.push(`uid=${owner.uid}`, `gid=${owner.gid}`);
    await run('mount', ['-t', 'tmpfs', '-o', options.join(','), `${SOURCE_PREFIX}${process.pid}`, dir]);
    this.mounted.add(dir);
  }

  /**
   * Unmounts `dir` (its contents are gone). A browser's last processes may still hold it for a
   * moment, so this retries; past the deadline it detaches it lazily (freed once unused).
   */
  async unmount(dir: string): Promise<void> {
    if (!this.mounted.has(dir)) return;
    const deadline = Date.now() + UNMOUNT_DEADLINE_MS;
    for (;;) {
      try {
        await run('umount', [dir]);
        break;
      } catch {
        if (Date.now() > deadline) {
          await run('umount', ['-l', dir]).catch((lazyError: unknown) =>
            this.logger.warn({ err: lazyError, dir }, 'local provider: could not unmount a session disk'),
          );
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    this.mounted.delete(dir);
  }

  /** Detaches `dir` at once (for `process.on('exit')`, where nothing can wait). */
  unmountSync(dir: string): void {
    if (!this.mounted.delete(dir)) return;
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {
      // Exiting: nothing more can be done.
    }
  }
}

/**
 * Root is not enough: a container's root lacks CAP_SYS_ADMIN unless it was given, and then every
 * session's mount would fail. So one tiny tmpfs is mounted and unmounted at start-up; the reason it
 * was refused, or null.
 */
async function probeMount(): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'browserdeck-disk-probe-'));
  let mounted = false;
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', `${SOURCE_PREFIX}${process.pid}`, dir]);
    mounted = true;
    await run('umount', [dir]);
    mounted = false;
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const said = (typeof stderr === 'string' && stderr.trim().split('\n')[0]) || (error as Error).message;
    return mounted
      ? `unmounting a size-limited tmpfs failed: ${said}`
      : `mounting a size-limited tmpfs was refused: ${said}`;
  } finally {
    if (mounted) await run('umount', ['-l', dir]).catch(() => {});
    await rmdir(dir).catch(() => {});
  }
}

/** Lazily unmounts the session disks of services that are gone (killed before they could). */
async function sweepStaleMounts(): Promise<void> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    const [fsType, source] = (right ?? '').split(' ');
    const pid = source?.startsWith(SOURCE_PREFIX) ? Number(source.slice(SOURCE_PREFIX.length)) : Number.NaN;
    if (fsType !== 'tmpfs' || !Number.isInteger(pid) || isProcessAlive(pid)) continue;
    const mountPoint = left
      ?.split(' ')[4]
      ?.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
    if (mountPoint) await run('umount', ['-l', mountPoint]).catch(() => {});
  }
}

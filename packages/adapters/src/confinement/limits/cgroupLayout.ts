import { join, posix } from 'node:path';

/** The cgroup controllers browsers are limited with. */
export const LIMIT_CONTROLLERS = ['memory', 'pids', 'cpu'] as const;
export type LimitController = (typeof LIMIT_CONTROLLERS)[number];

/**
 * Where this process's cgroups are: the unified hierarchy (v2) with the folder of its own cgroup,
 * or one folder per v1 hierarchy of the controllers that are mounted (a controller missing from
 * `v1` is not mounted).
 */
export type CgroupLayout =
  | { readonly version: 2; readonly mountPoint: string; readonly ownDir: string }
  | {
      readonly version: 1;
      readonly v1: Partial<Record<LimitController, { readonly mountPoint: string; readonly ownDir: string }>>;
    };

/** One line of /proc/self/mountinfo, as far as cgroups need it. */
interface Mount {
  readonly root: string;
  readonly mountPoint: string;
  readonly fsType: string;
  readonly readOnly: boolean;
  readonly superOptions: readonly string[];
}

/**
 * Reads the layout from the text of /proc/self/mountinfo and /proc/self/cgroup. v1 is chosen when
 * any of the limit controllers is mounted as a v1 hierarchy (a hybrid host's cgroup2 mount then has
 * none of them); else v2 when a cgroup2 file system is mounted. Null when neither is, or the mounts
 * are read-only (unless `readOnlyToo`: enough to read limits), or this process's cgroup lies outside
 * what is mounted (a container that sees only part of the tree).
 */
export function cgroupLayout(
  mountinfo: string,
  procSelfCgroup: string,
  options: { readOnlyToo?: boolean } = {},
): CgroupLayout | null {
  const usable = (m: Mount) => options.readOnlyToo === true || !m.readOnly;
  const mounts = mountinfo.split('\n').flatMap((line) => parseMount(line) ?? []);
  const own = parseProcCgroup(procSelfCgroup);
  const v1: Partial<Record<LimitController, { mountPoint: string; ownDir: string }>> = {};
  for (const controller of LIMIT_CONTROLLERS) {
    const mount = mounts.find(
      (m) => m.fsType === 'cgroup' && usable(m) && m.superOptions.includes(controller),
    );
    const path = own.v1.get(controller);
    if (!mount || path === undefined) continue;
    const ownDir = dirWithin(mount, path);
    if (ownDir !== null) v1[controller] = { mountPoint: mount.mountPoint, ownDir };
  }
  if (Object.keys(v1).length > 0) return { version: 1, v1 };
  const unified = mounts.find((m) => m.fsType === 'cgroup2' && usable(m));
  if (!unified || own.v2 === null) return null;
  const ownDir = dirWithin(unified, own.v2);
  return ownDir === null ? null : { version: 2, mountPoint: unified.mountPoint, ownDir };
}

/** The folder of cgroup `path` (as /proc/self/cgroup names it) under `mount`; null when not under its root. */
function dirWithin(mount: Mount, path: string): string | null {
  const rel = posix.relative(mount.root, path);
  if (rel.startsWith('..') || posix.isAbsolute(rel)) return null;
  return rel === '' ? mount.mountPoint : join(mount.mountPoint, rel);
}

function parseMount(line: string): Mount | null {
  // id parent major:minor root mount-point options [optional fields…] - fstype source super-options
  const [left, right] = line.split(' - ');
  if (!left || !right) return null;
  const fields = left.split(' ');
  const [fsType, , superOptions = ''] = right.split(' ');
  if (fields.length < 6 || !fsType) return null;
  const options = fields[5]!.split(',');
  return {
    root: unescapeMountPath(fields[3]!),
    mountPoint: unescapeMountPath(fields[4]!),
    fsType,
    readOnly: options.includes('ro') || superOptions.split(',').includes('ro'),
    superOptions: superOptions.split(','),
  };
}

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`). */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** `hierarchy-id:controllers:path` lines; `0::path` is the unified hierarchy. */
function parseProcCgroup(text: string): { v1: Map<string, string>; v2: string | null } {
  const v1 = new Map<string, string>();
  let v2: string | null = null;
  for (const line of text.split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, id, controllers, path] = match as unknown as [string, string, string, string];
    if (id === '0' && controllers === '') v2 = path;
    else for (const controller of controllers.split(',')) v1.set(controller, path);
  }
  return { v1, v2 };
}

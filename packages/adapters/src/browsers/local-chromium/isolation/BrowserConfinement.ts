import { execFile } from 'node:child_process';
import { chmod, chown, lstat, readlink, realpath } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@browserdeck/domain';
import { findOnPath } from '../chromium/findChromium.ts';
import { type BrowserUser, resolveBrowserUser } from './browserUser.ts';

const run = promisify(execFile);

/**
 * How local browsers are confined (http-api.md §7, docs/security.md):
 * - `bubblewrap`: an unprivileged user, Chromium's sandbox, and a bubblewrap filesystem view of
 *   system files (read-only), the browser's folder (read-only) and its own profile: nothing else.
 * - `namespaces`: an unprivileged user, Chromium's sandbox, and a mount namespace (util-linux
 *   `unshare`) in which `DATA_DIR`, home folders, the service's folder and the temporary folder
 *   (other profiles) are hidden under empty file systems; the browser's own folders are mounted back.
 * - `off`: the browser runs as the service's user, unconfined (single-user development only).
 */
export type IsolationLevel = 'bubblewrap' | 'namespaces' | 'off';

/** `LOCAL_ISOLATION`: `on` picks the strongest level this host supports. */
export type IsolationSetting = 'on' | 'off' | 'bubblewrap' | 'namespaces';

/** A browser launch to wrap: what runs, with which arguments, and the folders it owns. */
export interface ConfinedLaunch {
  readonly executablePath: string;
  readonly args: readonly string[];
  readonly profileDir: string;
  /**
   * Size of the sandbox's own `/tmp`, `/var/tmp` and `/dev/shm` (tmpfs) in bytes; null or absent for
   * the kernel's default (half the RAM).
   */
  readonly tmpfsBytes?: number | null;
}

/** The wrapped command: spawn `command` with `args` and exactly this environment. */
export interface WrappedCommand {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/** System folders a browser reads: libraries, fonts, certificates, its own configuration. */
const SYSTEM_PATHS = ['/usr', '/lib', '/lib64', '/lib32', '/bin', '/sbin', '/opt'];
const SYSTEM_ETC_PATHS = [
  '/etc/fonts',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/chromium',
  '/etc/chromium.d',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
];
/** Where the browser's own folders are staged in its mount namespace (reachable by its user). */
const STAGED_PROFILE = '/run/browserdeck/profile';
const STAGED_BROWSER = '/run/browserdeck/browser';

/**
 * Run as root in a fresh mount namespace: mounts a new /run (which also hides the host's sockets)
 * and binds the browser's profile and folder under it, so the browser's user can reach them even
 * when they lie inside private folders such as DATA_DIR. Arguments: profile, browser folder, then
 * the rest of the script's arguments.
 */
const STAGE_SCRIPT = [
  'set -e',
  'profile=$1; browser=$2; shift 2',
  'mount -t tmpfs -o mode=0755,nosuid,nodev browserdeck-run /run',
  `mkdir -p ${STAGED_PROFILE} ${STAGED_BROWSER}`,
  `mount --bind "$profile" ${STAGED_PROFILE}`,
  `mount --bind "$browser" ${STAGED_BROWSER}`,
];

/**
 * The `namespaces` level, after staging: hides every listed folder under an empty file system,
 * gives the browser an empty /tmp, and moves its folders back where they were (its browser
 * folder read-only). Arguments: the tmpfs size option (`size=<bytes>,` or empty), the staged
 * ones, hidden folders…, `--`, the command.
 */
const NAMESPACE_SCRIPT = [
  'tmpsize=$1; shift',
  ...STAGE_SCRIPT,
  'while [ "$1" != "--" ]; do',
  '  if [ -d "$1" ]; then mount -t tmpfs -o mode=0755,size=64k,nosuid,nodev browserdeck-hidden "$1"; fi',
  '  shift',
  'done',
  'shift',
  // Writable places the host's processes and other browsers share: each browser gets its own.
  'for d in /tmp /var/tmp /dev/shm; do',
  '  if [ -d "$d" ]; then mount -t tmpfs -o "$tmpsize"mode=1777,nosuid,nodev browserdeck-tmp "$d"; fi',
  'done',
  'mkdir -p "$browser" "$profile"',
  `mount --move ${STAGED_BROWSER} "$browser"`,
  'mount -o remount,bind,ro "$browser"',
  `mount --move ${STAGED_PROFILE} "$profile"`,
  'cd "$profile"',
  'exec "$@"',
].join('\n');

/** The `bubblewrap` level run as root: stage the folders, then hand over to bwrap as the browser's user. */
const BUBBLEWRAP_STAGE_SCRIPT = [...STAGE_SCRIPT, 'exec "$@"'].join('\n');

/**
 * Sets up and applies the confinement of local browsers. `setUp` picks the level (and creates the
 * browser user when the service runs as root), or throws with what is missing; `wrap` turns a
 * browser launch into the confined command.
 */
export class BrowserConfinement {
  readonly level: IsolationLevel;
  /** Who browsers run as; null when they run as the service's own user. */
  readonly user: BrowserUser | null;
  private readonly hidden: readonly string[];
  /** Absolute paths of the tools, found once on the service's PATH (browsers get a minimal one). */
  private readonly tools: Tools;
  /** bubblewrap's read-only view of the system folders, worked out once. */
  private readonly binds: readonly string[];

  private constructor(
    level: IsolationLevel,
    user: BrowserUser | null,
    hidden: readonly string[],
    tools: Tools,
    binds: readonly string[],
  ) {
    this.level = level;
    this.user = user;
    this.hidden = hidden;
    this.tools = tools;
    this.binds = binds;
  }

  /**
   * The confinement `setting` asks for, on this host. `hiddenPaths` are folders the browser must
   * never see (`DATA_DIR`, the service's folder); home folders and the temporary folder are added.
   */
  static async setUp(options: {
    setting: IsolationSetting;
    browserUser?: string | undefined;
    hiddenPaths: readonly string[];
    logger: Logger;
  }): Promise<BrowserConfinement> {
    const { setting, logger } = options;
    const hidden = [...new Set([...options.hiddenPaths, '/root', '/home', homedir(), tmpdir()])];
    if (setting === 'off') {
      logger.warn(
        {},
        'LOCAL_ISOLATION=off: local browsers run UNCONFINED as the service user and can read its files; use this only for single-user development',
      );
      return new BrowserConfinement('off', null, hidden, { setpriv: null, bwrap: null, unshare: null }, []);
    }
    const isRoot = process.getuid?.() === 0;
    const missing: string[] = [];
    const tools: Tools = {
      setpriv: await findOnPath('setpriv', process.env.PATH),
      bwrap: await findOnPath('bwrap', process.env.PATH),
      unshare: await findOnPath('unshare', process.env.PATH),
    };
    const binds = await systemBinds();
    let user: BrowserUser | null = null;
    if (isRoot) {
      if (!tools.setpriv) missing.push("setpriv (util-linux) to switch to the browser's user");
      else user = await resolveBrowserUser(options.browserUser);
    } else if (options.browserUser !== undefined) {
      missing.push(`root, to run browsers as BROWSER_USER=${options.browserUser}`);
    }
    const candidates: IsolationLevel[] = setting === 'on' ? ['bubblewrap', 'namespaces'] : [setting];
    for (const level of candidates) {
      const problem = missing.length > 0 ? null : await probe(level, isRoot, user, tools, binds);
      if (missing.length === 0 && problem === null)
        return new BrowserConfinement(level, user, hidden, tools, binds);
      if (problem) missing.push(problem);
    }
    throw new Error(
      `Local browser isolation (LOCAL_ISOLATION=${setting}) cannot be set up: ${[...new Set(missing)].join('; ')}. ` +
        'Install bubblewrap (apt-get install bubblewrap), or run the service as root with util-linux (unshare, setpriv); ' +
        'LOCAL_ISOLATION=off runs browsers unconfined, for single-user development only.',
    );
  }

  /** Chromium's own sandbox is on at every level but `off` as root (Chromium refuses root). */
  get chromiumSandbox(): boolean {
    return this.level !== 'off' || process.getuid?.() !== 0;
  }

  /** Gives a folder the browser writes (its profile) to the browser's user, private to it. */
  async claim(dir: string): Promise<void> {
    if (this.user) await chown(dir, this.user.uid, this.user.gid);
    await chmod(dir, 0o700);
  }

  /** The confined command for `launch`. */
  async wrap(launch: ConfinedLaunch): Promise<WrappedCommand> {
    const env = browserEnv(launch.profileDir);
    if (this.level === 'off') return { command: launch.executablePath, args: [...launch.args], env };
    // The real file: a link's target may lie outside what the confined browser sees.
    const executable = await realpath(launch.executablePath);
    const browserDir = dirname(executable);
    const switchUser = this.user ? switchTo(this.tools, this.user) : [];
    const tmpfsBytes = launch.tmpfsBytes ?? null;
    if (this.level === 'bubblewrap') {
      const sized = (path: string) => [
        ...(tmpfsBytes === null ? [] : ['--size', String(tmpfsBytes)]),
        '--tmpfs',
        path,
      ];
      // As root, the folders are staged where the browser's user (who runs bwrap) can reach them.
      const staged = this.user !== null;
      const view = [
        ...this.binds,
        ...['--proc', '/proc', '--dev', '/dev', ...sized('/tmp'), ...sized('/dev/shm')],
        ...['--ro-bind', staged ? STAGED_BROWSER : browserDir, browserDir],
        ...[
          '--bind',
          staged ? STAGED_PROFILE : launch.profileDir,
          launch.profileDir,
          '--chdir',
          launch.profileDir,
        ],
        ...['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'],
        ...['--die-with-parent', '--new-session'],
      ];
      const bwrap = [...switchUser, this.tools.bwrap!, ...view, '--', executable, ...launch.args];
      if (!staged) return { command: bwrap[0]!, args: bwrap.slice(1), env };
      return {
        command: this.tools.unshare!,
        args: [
          ...['--mount', '--propagation', 'private', '--'],
          ...['sh', '-c', BUBBLEWRAP_STAGE_SCRIPT, 'browserdeck-stage', launch.profileDir, browserDir],
          ...bwrap,
        ],
        env,
      };
    }
    const hide = [...this.hidden].sort((a, b) => a.length - b.length);
    return {
      command: this.tools.unshare!,
      args: [
        ...['--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--mount-proc'],
        ...['--ipc', '--uts', '--'],
        ...[
          'sh',
          '-c',
          NAMESPACE_SCRIPT,
          'browserdeck-confine',
          tmpfsBytes === null ? '' : `size=${tmpfsBytes},`,
          launch.profileDir,
          browserDir,
          ...hide,
          '--',
        ],
        ...switchUser,
        executable,
        ...launch.args,
      ],
      env,
    };
  }
}

/** The browser's whole environment: nothing of the service's (no secrets, no database URL). */
function browserEnv(profileDir: string): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: profileDir,
    XDG_CONFIG_HOME: join(profileDir, '.config'),
    XDG_CACHE_HOME: join(profileDir, '.cache'),
    LANG: 'C.UTF-8',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
  };
}

/** Read-only binds of the system folders that exist; symbolic links (merged /usr) are recreated. */
async function systemBinds(): Promise<string[]> {
  const args: string[] = [];
  for (const path of [...SYSTEM_PATHS, ...SYSTEM_ETC_PATHS]) {
    const stat = await lstat(path).catch(() => null);
    if (!stat) continue;
    if (stat.isSymbolicLink()) args.push('--symlink', await readlink(path), path);
    else args.push('--ro-bind', path, path);
  }
  return args;
}

/** The tools' absolute paths; null where not installed (a level that needs one is refused at set-up). */
interface Tools {
  readonly setpriv: string | null;
  readonly bwrap: string | null;
  readonly unshare: string | null;
}

/** `setpriv` to the browser's user: its own uid and gid, no supplementary groups. */
function switchTo(tools: Tools, user: BrowserUser): string[] {
  return [tools.setpriv!, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'];
}

/** Null when `level` works on this host; else what is missing. */
async function probe(
  level: IsolationLevel,
  isRoot: boolean,
  user: BrowserUser | null,
  tools: Tools,
  binds: readonly string[],
): Promise<string | null> {
  const prefix = user ? switchTo(tools, user) : [];
  if (level === 'bubblewrap') {
    if (!tools.bwrap) return 'bubblewrap (bwrap) is not installed';
    // As root the browser's folders are staged in a mount namespace first (see `wrap`).
    if (user && !tools.unshare)
      return "unshare (util-linux) is not installed, to stage the browser's folders";
    const check = [...prefix, tools.bwrap, ...binds, '--unshare-pid', '--die-with-parent', '--', 'true'];
    return (await succeeds(check))
      ? null
      : 'bubblewrap cannot create namespaces for the browser user (are unprivileged user namespaces disabled?)';
  }
  if (level === 'namespaces') {
    if (!isRoot) return 'the namespaces level needs the service to run as root';
    if (!tools.unshare) return 'unshare (util-linux) is not installed';
    return (await succeeds([
      tools.unshare,
      '--mount',
      '--pid',
      '--fork',
      '--mount-proc',
      '--ipc',
      '--uts',
      '--',
      'true',
    ]))
      ? null
      : 'unshare cannot create a mount namespace here';
  }
  return null;
}

async function succeeds(command: string[]): Promise<boolean> {
  try {
    await run(command[0]!, command.slice(1), { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

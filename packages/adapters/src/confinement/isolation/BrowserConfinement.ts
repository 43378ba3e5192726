import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@browserdeck/domain';
import { browserEnv } from './browserEnv.ts';
import { type BrowserUser, resolveBrowserUser } from './browserUser.ts';
import { bubblewrapCommand } from './bubblewrapCommand.ts';
import type { ConfinedLaunch, WrappedCommand } from './ConfinedLaunch.ts';
import {
  type ConfinementTools,
  findConfinementTools,
  NO_CONFINEMENT_TOOLS,
  switchToUser,
} from './ConfinementTools.ts';
import type { IsolationLevel, IsolationSetting } from './IsolationLevel.ts';
import { namespacesCommand } from './namespacesCommand.ts';
import { probeIsolationLevel } from './probeIsolationLevel.ts';
import { systemBinds } from './systemBinds.ts';

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
  private readonly tools: ConfinementTools;
  /** bubblewrap's read-only view of the system folders, worked out once. */
  private readonly binds: readonly string[];

  private constructor(
    level: IsolationLevel,
    user: BrowserUser | null,
    hidden: readonly string[],
    tools: ConfinementTools,
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
      return new BrowserConfinement('off', null, hidden, NO_CONFINEMENT_TOOLS, []);
    }
    const isRoot = process.getuid?.() === 0;
    const missing: string[] = [];
    const tools = await findConfinementTools();
    const binds = await systemBinds();
    let user: BrowserUser | null = null;
    if (isRoot) {
      if (!tools.setpriv) missing.push("setpriv (util-linux) to switch to the browser's user");
      else user = await resolveBrowserUser(options.browserUser);
    } else if (options.browserUser !== undefined) {
      missing.push(`root, to run browsers as BROWSER_USER=${options.browserUser}`);
    }
    const candidates: IsolationLevel[] = setting === 'on' ? ['bubblewrap', 'namespaces'] : [setting];
    // What every level needs (the switch of user) first; then each level in turn, the first that launches.
    const needsFirst = missing.length > 0;
    for (const level of needsFirst ? [] : candidates) {
      const problem = await probeIsolationLevel(level, isRoot, user, tools, binds);
      if (problem) {
        missing.push(problem);
        continue;
      }
      const candidate = new BrowserConfinement(level, user, hidden, tools, binds);
      const refused = await trialLaunch(candidate);
      if (refused === null) return candidate;
      missing.push(
        `the ${level} level's launch was refused here (${refused}); in a container it needs ` +
          '--cap-add=SYS_ADMIN, --security-opt seccomp=unconfined and unmasked /proc paths (docs/deploy.md)',
      );
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

  /**
   * The confined command for `launch` (a browser, or a run's script runner: see `ConfinedLaunch`).
   * At the `off` level it runs as it is, with nothing of `network` or the folders enforced.
   */
  async wrap(launch: ConfinedLaunch): Promise<WrappedCommand> {
    const env = launch.env ?? browserEnv(launch.profileDir);
    if (this.level === 'off') return { command: launch.executablePath, args: [...launch.args], env };
    // The real file: a link's target may lie outside what the confined process sees.
    const executable = await realpath(launch.executablePath);
    const common = {
      launch,
      executable,
      readOnlyDirs: [dirname(executable), ...(launch.readOnlyDirs ?? [])],
      tools: this.tools,
      switchUser: this.user ? switchToUser(this.tools, this.user) : [],
      env,
    };
    if (this.level === 'bubblewrap')
      return bubblewrapCommand({ ...common, binds: this.binds, staged: this.user !== null });
    return namespacesCommand({ ...common, hidden: this.hidden });
  }
}

const run = promisify(execFile);

/**
 * Runs `true` through the whole confined launch chain of `confinement`, as a browser starts: the
 * staging mount namespace, the switch of user, bubblewrap or the namespaces with a fresh /proc. The
 * tool checks alone pass in a container that then refuses the real launch (no CAP_SYS_ADMIN for the
 * staging, a masked /proc), and every session would fail. Null when it ran; else why not.
 */
async function trialLaunch(confinement: BrowserConfinement): Promise<string | null> {
  const profileDir = await mkdtemp(join(tmpdir(), 'browserdeck-isolation-probe-'));
  try {
    await confinement.claim(profileDir);
    const wrapped = await confinement.wrap({ executablePath: '/bin/true', args: [], profileDir });
    await run(wrapped.command, wrapped.args, { env: wrapped.env, timeout: 15_000 });
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const said = typeof stderr === 'string' ? stderr.trim().split('\n').at(-1) : '';
    return said || (error as Error).message.split('\n')[0] || 'it failed';
  } finally {
    await rm(profileDir, { recursive: true, force: true }).catch(() => {});
  }
}

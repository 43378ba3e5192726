/** A launch to wrap (a browser, a run's script runner): what runs, with which arguments, and the folders it owns. */
export interface ConfinedLaunch {
  readonly executablePath: string;
  readonly args: readonly string[];
  /** The one folder it writes (a browser's profile, a run's folder); it starts in it. */
  readonly profileDir: string;
  /**
   * Size of the sandbox's own `/tmp`, `/var/tmp` and `/dev/shm` (tmpfs) in bytes; null or absent for
   * the kernel's default (half the RAM).
   */
  readonly tmpfsBytes?: number | null;
  /** Folders it reads besides the executable's own (read-only, at their paths); none when absent. */
  readonly readOnlyDirs?: readonly string[];
  /** Its whole environment; absent for a browser's (`browserEnv`). */
  readonly env?: Record<string, string>;
  /**
   * False gives it a network namespace of its own with nothing in it (no way out but what it was
   * handed, such as a Unix socket in its folder); absent or true shares the host's network.
   */
  readonly network?: boolean;
}

/** The wrapped command: spawn `command` with `args` and exactly this environment. */
export interface WrappedCommand {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

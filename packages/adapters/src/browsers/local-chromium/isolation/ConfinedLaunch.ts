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

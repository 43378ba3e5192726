import type { Logger } from '@browserdeck/domain';
import type { IsolationSetting } from '../../confinement/isolation/IsolationLevel.ts';
import type { OwnUpgrade } from './CdpBridge.ts';

/** Where a run's time went, in milliseconds (for metrics and the benchmark). */
export interface RunTimings {
  readonly runId: string;
  /** True when a process started ahead served it. */
  readonly warm: boolean;
  /** Its process's spawn until ready (playwright-core loaded). */
  readonly spawnMs: number;
  /** The run's start until its process was ready (0 for a warm one). */
  readonly waitMs: number;
  /** Connecting to the session (`connectOverCDP`); null when it never connected. */
  readonly connectMs: number | null;
  /** Loading and running the script; null when it never started. */
  readonly scriptMs: number | null;
  /** The run's start until its process was gone and its folder removed. */
  readonly totalMs: number;
}

/** How the runner is set up (`RUN_MEMORY_MB`, `LOCAL_ISOLATION`, `BROWSER_USER`, …). */
export interface ConfinedScriptRunnerOptions {
  /** Parent of the runs' folders (created 0700; one folder per run, removed afterwards). No ':'. */
  readonly runsDir: string;
  /** `LOCAL_ISOLATION` (default `on`): as the local browsers; `off` keeps only Node's permission model. */
  readonly isolation?: IsolationSetting | undefined;
  /** `BROWSER_USER`: who scripts run as when the service is root (default `browserdeck-browser`). */
  readonly browserUser?: string | undefined;
  /** Folders a script must never see (namespaces level; default: the service's folders). */
  readonly hiddenPaths?: readonly string[] | undefined;
  /** Heap cap of each run's process in MiB (`RUN_MEMORY_MB`; default 256); its cgroup allows a headroom more. */
  readonly memoryMb?: number | undefined;
  /** Most tasks of a run's process (default 128; null: none). */
  readonly pids?: number | null | undefined;
  /** CPU weight of a run's process against others (default 100; null: none). */
  readonly cpuWeight?: number | null | undefined;
  /** Size of a run's folder and its /tmp in MiB (default 64; null: none). */
  readonly diskMb?: number | null | undefined;
  /** Processes started ahead (default 1). */
  readonly warmRunners?: number | undefined;
  readonly logger?: Logger | undefined;
  /**
   * Serves a run's CDP connection in this process when its session's endpoint is one of the
   * service's own (the composition binds it to the HTTP side's upgrade handler); without it, or for
   * another server's endpoint, the connection is relayed to the endpoint's URL.
   */
  readonly ownUpgrade?: OwnUpgrade | undefined;
  /** Called once per run with where its time went. */
  readonly onTimings?: ((timings: RunTimings) => void) | undefined;
}

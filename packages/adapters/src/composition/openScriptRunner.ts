import { dirname, join } from 'node:path';
import { RUN_CONCURRENCY_DEFAULT, type ScriptRunner } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { OwnUpgrade } from '../runs/runner/CdpBridge.ts';
import { securePrivateDir } from '../shared/securePrivateDir.ts';
import type { BrowsersOption, RunsOptions } from './BrowserdeckOptions.ts';

/** What the script runner is built from. */
export interface ScriptRunnerContext {
  browsers: BrowsersOption;
  runs: RunsOptions;
  dataDir: string;
  logger: Logger;
  /** Told how long each run's process took from spawn to ready. */
  onSpawned: (spawnMs: number) => void;
  /** Serves a run's CDP connection in process when its session's endpoint is the service's own. */
  ownUpgrade: OwnUpgrade;
  /** A runner the host gave instead (`overrides.scriptRunner`): its giver starts and closes it. */
  given?: ScriptRunner | undefined;
}

/** A script runner and its lifecycle: `start` prepares it (confinement, warm processes), `close` ends it. */
export interface OpenedScriptRunner {
  runner: ScriptRunner;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The confined script runner (`runs/runner/`, loaded here only), confined as the local browsers
 * are: the same isolation setting and user unless `runs` says otherwise, with the data folder and
 * the service's own folders out of its view. On an instance that takes runs, its folder is made
 * private here (0700, as the data folder), before the server listens: the data folder holds the same
 * folders from the first request on. Nothing else is set up or spawned before `start` or the first
 * run. A `given` runner is used as it is.
 */
export async function openScriptRunner(context: ScriptRunnerContext): Promise<OpenedScriptRunner> {
  if (context.given) return { runner: context.given, start: async () => {}, close: async () => {} };
  const { runs, dataDir } = context;
  const local = 'local' in context.browsers ? context.browsers.local : {};
  const runsDir = runs.dir ?? join(dataDir, 'runs');
  if (runs.worker ?? true) {
    const { tightened, refused } = await securePrivateDir(runsDir);
    if (tightened.length > 0 || refused.length > 0)
      context.logger.warn(
        { runsDir, tightened, refused },
        'the runs folder was open to other users: made it 0700 where this process may (refused: what it may not)',
      );
  }
  const { ConfinedScriptRunner } = await import('../runs/runner/index.ts');
  const main = process.argv[1];
  const runner = new ConfinedScriptRunner({
    runsDir,
    isolation: runs.isolation ?? local.isolation,
    browserUser: runs.user ?? local.browserUser,
    hiddenPaths: [
      dataDir,
      ...(local.hiddenPaths ?? (main ? [process.cwd(), dirname(main)] : [process.cwd()])),
    ],
    memoryMb: runs.memoryMb,
    warmRunners: warmRunnersFor(runs),
    logger: context.logger.child({ component: 'script-runner' }),
    ownUpgrade: context.ownUpgrade,
    onTimings: (timings) => context.onSpawned(timings.spawnMs),
  });
  return { runner, start: () => runner.start(), close: () => runner.close() };
}

/**
 * Run processes kept ready ahead of demand: `runs.warmRunners`, by default one per run this instance
 * executes at once (`concurrency`), so concurrent runs do not pay a cold start; none on an API-only
 * instance (`worker: false`), which runs nothing.
 */
export function warmRunnersFor(runs: RunsOptions): number {
  if (!(runs.worker ?? true)) return 0;
  return runs.warmRunners ?? runs.concurrency ?? RUN_CONCURRENCY_DEFAULT;
}

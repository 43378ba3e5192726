import { dirname, join } from 'node:path';
import { RUN_CONCURRENCY_DEFAULT, type ScriptRunner } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { OwnUpgrade } from '../runs/runner/CdpBridge.ts';
import { securePrivateDir } from '../shared/securePrivateDir.ts';
import type { BrowsersOption, RunsOptions } from './BrowserdeckOptions.ts';
import type { Part } from './lifecycle/Part.ts';

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

/**
 * A script runner as a part: `start` prepares it (confinement, warm processes) on an instance that
 * takes runs, `stop` ends its processes.
 */
export interface OpenedScriptRunner extends Part {
  runner: ScriptRunner;
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
  const part = { name: 'script-runner', phase: 'drain' } as const;
  if (context.given) return { ...part, runner: context.given, stop: async () => {} };
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
  return {
    ...part,
    runner,
    start() {
      if (!(runs.worker ?? true)) return;
      runner
        .start()
        .catch((error: unknown) =>
          context.logger.error({ err: error }, 'the script runner could not be set up: runs will fail'),
        );
    },
    stop: () => runner.close(),
  };
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

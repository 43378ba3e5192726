export { ConfinedScriptRunner } from './ConfinedScriptRunner.ts';
export type { ConfinedScriptRunnerOptions, RunTimings } from './ConfinedScriptRunnerOptions.ts';

export type { OwnUpgrade } from './CdpBridge.ts';
export { ConfinedScriptRunner } from './ConfinedScriptRunner.ts';
export type { ConfinedScriptRunnerOptions, RunTimings } from './ConfinedScriptRunnerOptions.ts';
export { parseRunnerTimingsLine, type RunTimingsOfLine } from './runnerTimingsLine.ts';

import { NotFoundError } from '../shared/DomainError.ts';
import type { Run } from './Run.ts';
import type { RunRepository } from './RunRepository.ts';

/** The project's run, or `not_found`. */
export async function findRun(runs: RunRepository, projectId: string, runId: string): Promise<Run> {
  const run = await runs.findInProject(projectId, runId);
  if (!run) throw new NotFoundError('Run');
  return run;
}

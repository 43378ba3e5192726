import { ConflictError } from '@browserdeck/domain';

/** One context more than a project may hold (`LOCAL_MAX_CONTEXTS_PER_PROJECT`). */
export function contextLimitError(maxPerProject: number): ConflictError {
  return new ConflictError(
    'context_limit_reached',
    `This project has ${maxPerProject} contexts, the most it may hold; delete one first.`,
  );
}

/** A delete of a context a running session saves to. */
export function contextInUseError(contextId: string): ConflictError {
  return new ConflictError(
    'context_in_use',
    `Context ${contextId} is in use by a running session; release the session first.`,
  );
}

import { join } from 'node:path';
import { PROVIDER_REF_MAX_LENGTH, ValidationError } from '@browserdeck/domain';

/** What a context id may look like: letters, digits, `_` and `-` (so it can never leave the folder). */
export const CONTEXT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const PROJECT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The persistent profile folder of a context, `<dataDir>/contexts/<projectId>/<contextId>`: a
 * context id names a profile within its project, so the same name in two projects is two
 * profiles. An id that is not a plain name (slashes, dots, empty, too long) is a
 * `validation_failed` on `contextId`.
 */
export function contextProfileDir(dataDir: string, projectId: string, contextId: string): string {
  if (contextId.length > PROVIDER_REF_MAX_LENGTH || !CONTEXT_ID_PATTERN.test(contextId)) {
    throw ValidationError.field(
      'contextId',
      `must be 1 to ${PROVIDER_REF_MAX_LENGTH} letters, digits, "_" or "-", starting with a letter or digit`,
    );
  }
  if (!PROJECT_ID_PATTERN.test(projectId))
    throw new Error(`unexpected project id ${JSON.stringify(projectId)}`);
  return join(dataDir, 'contexts', projectId, contextId);
}

import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@browserdeck/domain';
import { CONTEXT_ID_PATTERN } from './contextProfileDir.ts';

/** A project id as the database has them. */
const PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Profiles an earlier version kept as folders of the data folder (`<dataDir>/contexts/<project>/
 * <context>`), each stored by `store` as its context's first save and then removed, so an upgrade
 * loses no context. Only names the folder store made are taken (a leftover `….incoming-…` of a
 * write-back is not a context); a folder that cannot be stored (its project is gone, it is too
 * large) stays where it is, with a warning.
 */
export async function importContextFolders(
  dataDir: string,
  store: (projectId: string, contextId: string, dir: string) => Promise<boolean>,
  logger: Logger,
): Promise<void> {
  const root = join(dataDir, 'contexts');
  for (const projectId of await readdir(root).catch(() => [])) {
    if (!PROJECT_ID.test(projectId)) continue;
    for (const contextId of await readdir(join(root, projectId)).catch(() => [])) {
      if (!CONTEXT_ID_PATTERN.test(contextId)) continue;
      const dir = join(root, projectId, contextId);
      try {
        if (await store(projectId, contextId, dir)) await rm(dir, { recursive: true, force: true });
        else throw new Error('the context was held meanwhile');
      } catch (error) {
        logger.warn(
          { err: error, projectId, contextId, dir },
          'local provider: a context profile folder from an earlier version could not be stored; it is left in place',
        );
      }
    }
    // Gone once every context in it is stored; kept (not empty) otherwise.
    await rmdir(join(root, projectId)).catch(() => {});
  }
}

import { randomUUID } from 'node:crypto';
import { resolveInstanceId } from '../instances/resolveInstanceId.ts';
import type { Part } from './lifecycle/Part.ts';

/** This instance's id, as the part that frees its data-folder slot at close. */
export interface OpenedInstanceId extends Part {
  readonly id: string;
}

/**
 * This instance's id. A stable one (kept in the data folder, `resolveInstanceId`) matters where
 * sessions outlive this process's memory: a database others share or restarts read (`stable`), or
 * browsers of ours. A host's own provider on in-memory storage (the test app) keeps nothing on disk.
 * The slot a data-folder id holds is freed in `release`, near the very end: a restart then finds
 * this id free.
 */
export async function openInstanceId(options: {
  dataDir: string;
  configured: string | undefined;
  /** Whether the id must outlive this process (shared storage, or the composition's own browsers). */
  stable: boolean;
}): Promise<OpenedInstanceId> {
  const part = { name: 'instance-id', phase: 'release' } as const;
  const { configured } = options;
  if (!options.stable) return { ...part, id: configured ?? `i-${randomUUID()}`, stop: async () => {} };
  const { id, slot } = await resolveInstanceId({ dataDir: options.dataDir, configured });
  return {
    ...part,
    id,
    async stop() {
      await slot?.release();
    },
  };
}

import type { Project } from '../projects/Project.ts';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from '../sessions/CreateSession.ts';
import type { IdempotencyStore } from '../sessions/IdempotencyStore.ts';
import type { Clock } from '../shared/Clock.ts';
import { ConflictError } from '../shared/DomainError.ts';
import { stableStringify } from '../shared/stableStringify.ts';
import type { Run } from './Run.ts';
import type { RunRepository } from './RunRepository.ts';

/** What a run create with an `Idempotency-Key` needs. */
export interface RunIdempotencyDeps {
  idempotency: IdempotencyStore;
  runs: RunRepository;
  clock: Clock;
}

/**
 * Runs `create` (which must store the run under `runId`) at most once per `key` of the project:
 * the key is claimed first, in the session creates' store under a scope of its own, holding the run
 * id in the record's id slot; a retry with the same body (`fingerprintOf`) gets that run back
 * (`replayed`), one with another body `idempotency_key_reused`, as does one while the first is
 * still being created. A claim left unanswered past the lease (the request died before storing its
 * run) is taken over. A create that fails gives the key up, so a retry can go ahead.
 */
export async function withRunIdempotency(
  deps: RunIdempotencyDeps,
  claim: { project: Project; key: string; body: unknown; runId: string },
  create: () => Promise<Run>,
): Promise<{ run: Run; replayed: boolean }> {
  const { idempotency, clock } = deps;
  const { project, key, runId } = claim;
  const scope = `${project.ownerId}:${project.id}:runs`;
  const fingerprint = stableStringify(claim.body);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  const existing = await idempotency.reserve(scope, key, fingerprint, runId, now, expiresAt);
  if (existing) {
    if (existing.fingerprint !== fingerprint)
      throw new ConflictError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request body.',
      );
    const first = existing.sessionId ? await deps.runs.findInProject(project.id, existing.sessionId) : null;
    if (first) return { run: first, replayed: true };
    const abandoned = now.getTime() - existing.claimedAt.getTime() >= IDEMPOTENCY_LEASE_MS;
    if (!abandoned || !(await idempotency.takeOver(scope, key, existing.claimedAt, runId, now, expiresAt)))
      throw new ConflictError(
        'idempotency_key_reused',
        'A request with this Idempotency-Key is still in progress; retry shortly.',
      );
  }
  try {
    return { run: await create(), replayed: false };
  } catch (error) {
    await idempotency.release(scope, key, runId).catch(() => {});
    throw error;
  }
}

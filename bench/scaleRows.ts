/**
 * The synthetic data of the Scale scenario: users, projects and sessions with a realistic spread,
 * generated the same way (one seeded PRNG) for both dialects.
 */
import { randomUUID } from 'node:crypto';

/** How much to generate. */
export interface ScaleShape {
  /** Sessions in all. */
  sessions: number;
  /** Projects in all, the measured one included. */
  projects: number;
  /** Sessions of the measured project (at most `sessions`). */
  measuredSessions: number;
}

/** A `browser_sessions` row, times in epoch milliseconds. */
export interface SessionSeedRow {
  id: string;
  projectId: string;
  providerSessionId: string;
  status: string;
  connectUrl: string;
  createdAt: number;
  updatedAt: number;
  startedAt: number;
  endedAt: number | null;
  expiresAt: number | null;
  lastSyncedAt: number;
  name: string;
  env: string;
  timeoutSec: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Terminal sessions were created over the last 90 days; live ones recently. */
const HISTORY_MS = 90 * DAY;

/**
 * Status shares: most sessions ended long ago; a few per cent are live. `RUNNING` is ~5 %, so the
 * measured project (10,000 sessions) holds ~500 running ones, all from the last 6 hours.
 */
const STATUS_SHARES: ReadonlyArray<readonly [string, number]> = [
  ['COMPLETED', 0.8],
  ['TIMED_OUT', 0.08],
  ['ERROR', 0.06],
  ['RUNNING', 0.05],
  ['PENDING', 0.01],
];

/** mulberry32: a small seeded PRNG, so two runs (and both dialects) get the same spread. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pickStatus(r: number): string {
  let acc = 0;
  for (const [status, share] of STATUS_SHARES) {
    acc += share;
    if (r < acc) return status;
  }
  return 'COMPLETED';
}

/**
 * Yields the sessions in batches of `batchSize`: the first `measuredSessions` belong to
 * `measuredProjectId`, the rest are spread round-robin over `otherProjectIds`. `sealedEnvs` are
 * `SecretBox`-sealed `env` values under the server's key, used in turn.
 */
export function* sessionRows(options: {
  shape: ScaleShape;
  measuredProjectId: string;
  otherProjectIds: readonly string[];
  sealedEnvs: readonly string[];
  now: number;
  batchSize?: number;
}): Generator<SessionSeedRow[]> {
  const { shape, measuredProjectId, otherProjectIds, sealedEnvs, now, batchSize = 10_000 } = options;
  const random = prng(0x5ca1e);
  let batch: SessionSeedRow[] = [];
  for (let i = 0; i < shape.sessions; i++) {
    const projectId =
      i < shape.measuredSessions || otherProjectIds.length === 0
        ? measuredProjectId
        : otherProjectIds[i % otherProjectIds.length]!;
    const status = pickStatus(random());
    const live = status === 'RUNNING' || status === 'PENDING';
    const createdAt = Math.floor(
      now - (status === 'PENDING' ? random() * 120_000 : live ? random() * 6 * HOUR : random() * HISTORY_MS),
    );
    const startedAt = createdAt + Math.floor(random() * 2_000);
    const timeoutSec = 300 * (1 + Math.floor(random() * 12));
    // Ended sessions ran seconds to the full timeout (TIMED_OUT always ran to it).
    const ranMs =
      status === 'TIMED_OUT'
        ? timeoutSec * 1000
        : Math.floor(Math.min(timeoutSec * 1000, 5_000 + -Math.log(1 - random()) * 180_000));
    const endedAt = live ? null : startedAt + ranMs;
    const id = randomUUID();
    batch.push({
      id,
      projectId,
      providerSessionId: id,
      status,
      connectUrl: `ws://127.0.0.1:3000/v1/local/sessions/${id}/cdp?key=${id.slice(0, 8)}`,
      createdAt,
      updatedAt: endedAt ?? startedAt,
      startedAt,
      endedAt,
      expiresAt: live ? startedAt + timeoutSec * 1000 : null,
      lastSyncedAt: endedAt ?? Math.min(now, startedAt + 15_000),
      name: `Session ${new Date(createdAt).toISOString()}`,
      env: sealedEnvs[i % sealedEnvs.length]!,
      timeoutSec,
    });
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** The other projects' owners (one per 10 projects) and the projects themselves. */
export function ownersAndProjects(count: number, now: number) {
  const users = Array.from({ length: Math.max(1, Math.ceil(count / 10)) }, (_, i) => ({
    id: randomUUID(),
    email: `scale-owner-${i}@example.com`,
    createdAt: now - HISTORY_MS - DAY,
  }));
  const projects = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    ownerId: users[i % users.length]!.id,
    name: `Scale project ${i}`,
    slug: `scale-project-${i}`,
    createdAt: now - HISTORY_MS - DAY + i,
  }));
  return { users, projects };
}

import { Run, type RunError, type RunStatus, type SessionRequest } from '@browserdeck/domain';
import type { EntityData } from '@mikro-orm/core';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import type { StoredRun } from './entities/RunSchema.ts';
import { openSecretRecord, sealSecretRecord } from './secretRecords.ts';

/** A `runs` row as the statements write it, every column named by its property; JSON as its text. */
export type RunRow = { [K in keyof StoredRun]: StoredRun[K] | string | null };

/**
 * The row for `run`: `env` sealed, and so is the `env` of its session request (the agent's
 * variables merged with the run's); the JSON columns as JSON text, so that a string or number
 * `input` or `result` is stored as the JSON value it is on both dialects.
 */
export function toRunRow(run: Run, secrets: SecretBox): RunRow {
  return {
    id: run.id,
    projectId: run.projectId,
    ownerId: run.ownerId,
    agentId: run.agentId,
    sessionId: run.sessionId,
    status: run.status,
    input: jsonText(run.input),
    result: jsonText(run.result),
    error: jsonText(run.error),
    exitCode: run.exitCode,
    timeoutSec: run.timeoutSec,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    logBytes: run.logBytes,
    script: run.script,
    env: sealSecretRecord(secrets, run.env),
    sessionRequest: jsonText(sealRequest(run.sessionRequest, secrets)),
    workerId: run.workerId,
    heartbeatAt: run.heartbeatAt,
  };
}

/**
 * The `Run` (`Run.restore`) a row holds, as MikroORM's result mapper reads it (dates converted).
 * JSON columns come back parsed from PostgreSQL (`jsonb`) and as JSON text from SQLite.
 */
export function toRun(row: EntityData<StoredRun>, secrets: SecretBox, dialect: DatabaseDialect): Run {
  const json = (value: unknown): unknown =>
    dialect === 'sqlite' && typeof value === 'string' ? JSON.parse(value) : (value ?? null);
  const stored = row as StoredRun;
  return Run.restore({
    id: stored.id,
    projectId: stored.projectId,
    ownerId: stored.ownerId,
    agentId: stored.agentId ?? null,
    sessionId: stored.sessionId ?? null,
    status: stored.status as RunStatus,
    input: json(stored.input),
    result: json(stored.result),
    error: json(stored.error) as RunError | null,
    exitCode: stored.exitCode ?? null,
    timeoutSec: Number(stored.timeoutSec),
    createdAt: stored.createdAt,
    startedAt: stored.startedAt ?? null,
    endedAt: stored.endedAt ?? null,
    logBytes: Number(stored.logBytes),
    script: stored.script,
    env: openSecretRecord(secrets, stored.env),
    sessionRequest: openRequest(json(stored.sessionRequest) as StoredRequest | null, secrets),
    workerId: stored.workerId ?? null,
    heartbeatAt: stored.heartbeatAt ?? null,
  });
}

/** A session request as stored: its `env`, when it has one, sealed. */
type StoredRequest = Omit<SessionRequest, 'env'> & { env?: string };

function sealRequest(request: SessionRequest | null, secrets: SecretBox): StoredRequest | null {
  if (!request) return null;
  const { env, ...rest } = request;
  return env === undefined ? rest : { ...rest, env: sealSecretRecord(secrets, env) };
}

function openRequest(stored: StoredRequest | null, secrets: SecretBox): SessionRequest | null {
  if (!stored) return null;
  const { env, ...rest } = stored;
  return env === undefined ? rest : { ...rest, env: openSecretRecord(secrets, env) };
}

/** A NUL as `JSON.stringify` escapes it (`\u0000`), not when its backslash is itself escaped. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * `value` as JSON text; null for null (or nothing). A NUL in a string becomes U+FFFD on both
 * dialects: PostgreSQL's `jsonb` refuses `\u0000`, and a result holding one must still end its run.
 */
function jsonText(value: unknown): string | null {
  const text: string | undefined = value === null ? undefined : JSON.stringify(value);
  return text === undefined ? null : text.replace(ESCAPED_NUL, '$1\\ufffd');
}

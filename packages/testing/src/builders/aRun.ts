import { Run, type RunStatus, type SessionRequest } from '@browserdeck/domain';
import { BUILT_AT, BUILT_OWNER_ID, BUILT_PROJECT_ID, builtId, nextBuiltNumber } from './builderDefaults.ts';

/**
 * What `aRun` may be told: any field `Run.create` takes, and a `status` it is moved to through the
 * entity's own methods (`workerId` starts it; a terminal status ends it `endedAt`, a minute later
 * unless told).
 */
export interface RunOverrides {
  id?: string;
  projectId?: string;
  ownerId?: string;
  agentId?: string | null;
  sessionId?: string | null;
  script?: string;
  input?: unknown;
  env?: Record<string, string>;
  timeoutSec?: number;
  sessionRequest?: SessionRequest | null;
  now?: Date;
  status?: RunStatus;
  workerId?: string;
  endedAt?: Date;
}

/**
 * A valid run built through `Run.create`: a fresh id, an ad-hoc run (no agent, no session request)
 * on a session with a built id, script `return 1;`, input null, no env, 60 s, in `BUILT_PROJECT_ID`
 * owned by `BUILT_OWNER_ID`, created at `BUILT_AT`; QUEUED unless `status` says otherwise (a
 * SUCCEEDED run returned null, a FAILED one threw `script_error`, a TIMED_OUT one `timed_out`).
 */
export function aRun(overrides: RunOverrides = {}): Run {
  const n = nextBuiltNumber();
  const {
    id = builtId(n),
    projectId = BUILT_PROJECT_ID,
    ownerId = BUILT_OWNER_ID,
    now = BUILT_AT,
  } = overrides;
  const run = Run.create({
    id,
    projectId,
    ownerId,
    agentId: overrides.agentId === undefined ? null : overrides.agentId,
    sessionId: overrides.sessionId === undefined ? builtId(n + 100_000) : overrides.sessionId,
    script: overrides.script ?? 'return 1;',
    input: overrides.input === undefined ? null : overrides.input,
    env: overrides.env ?? {},
    timeoutSec: overrides.timeoutSec ?? 60,
    sessionRequest: overrides.sessionRequest ?? null,
    now,
  });
  const status = overrides.status ?? 'QUEUED';
  if (status === 'QUEUED') return run;
  run.start(overrides.workerId ?? 'instance-1/0', now);
  if (status === 'RUNNING') return run;
  const endedAt = overrides.endedAt ?? new Date(now.getTime() + 60_000);
  if (status === 'SUCCEEDED') run.end({ status, result: null, exitCode: 0 }, endedAt);
  else if (status === 'CANCELED') run.cancel(endedAt);
  else if (status === 'TIMED_OUT')
    run.end(
      { status, error: { code: 'timed_out', message: 'The run passed its timeoutSec.' }, exitCode: null },
      endedAt,
    );
  else
    run.end({ status, error: { code: 'script_error', message: 'The script failed.' }, exitCode: 1 }, endedAt);
  return run;
}

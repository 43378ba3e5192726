import {
  jsonByteLength,
  RUN_ERROR_CODES,
  RUN_INPUT_MAX_BYTES,
  RUN_LIST_DEFAULT_LIMIT,
  RUN_LIST_MAX_LIMIT,
  RUN_LOG_STREAMS,
  RUN_LOGS_DEFAULT_LIMIT,
  RUN_LOGS_MAX_LIMIT,
  RUN_STATUSES,
  RUN_TIMEOUT_MAX_SEC,
  RUN_TIMEOUT_MIN_SEC,
  RUN_WAIT_MAX_SEC,
  RUN_WAIT_MIN_SEC,
} from '@browserdeck/domain';
import { z } from 'zod';
import {
  jsonTextRule,
  providerProjectParams,
  queryInteger,
  timestamp,
  uuidParam,
} from '../shared/commonSchemas.ts';
import { envField, regionField, scriptField } from '../shared/runSettingsSchemas.ts';

/** `/v1/{provider}/projects/{project_id}/runs/{run_id}…` */
export const runParams = providerProjectParams.extend({ run_id: uuidParam });

const waitRange = `must be an integer from ${RUN_WAIT_MIN_SEC} to ${RUN_WAIT_MAX_SEC}`;
const waitDescription =
  `Seconds (${RUN_WAIT_MIN_SEC} to ${RUN_WAIT_MAX_SEC}, default 0) to hold the answer until the run is ` +
  'terminal: a short run gets its result in one call. The answer is the run as it is when the wait ends.';

/** The run's `input`: any JSON value of at most 64 KiB as JSON text. */
const inputField = z
  .unknown()
  .refine((value) => jsonByteLength(value) <= RUN_INPUT_MAX_BYTES, {
    message: `must be at most ${RUN_INPUT_MAX_BYTES} bytes as JSON`,
  })
  .check(jsonTextRule)
  .meta({
    description: `Any JSON value, at most ${RUN_INPUT_MAX_BYTES} bytes as JSON; the script reads it as \`input\`. Default null.`,
  });

const timeoutRange = `must be an integer from ${RUN_TIMEOUT_MIN_SEC} to ${RUN_TIMEOUT_MAX_SEC}`;

/** The run's own deadline in seconds. */
const runTimeoutField = z
  .int(timeoutRange)
  .min(RUN_TIMEOUT_MIN_SEC, timeoutRange)
  .max(RUN_TIMEOUT_MAX_SEC, timeoutRange)
  .meta({ description: 'Seconds before the run ends TIMED_OUT.' });

const waitField = z.int(waitRange).min(RUN_WAIT_MIN_SEC, waitRange).max(RUN_WAIT_MAX_SEC, waitRange).meta({
  description: waitDescription,
});

/** `POST …/agents/{agent_id}/runs` body. */
export const StartAgentRunBody = z
  .strictObject({
    input: inputField.optional(),
    env: envField.optional().meta({ description: 'Merged over the agent’s envVars.' }),
    timeoutSec: runTimeoutField
      .optional()
      .meta({ description: 'Seconds before the run ends TIMED_OUT; default the agent’s timeoutSec.' }),
    region: regionField.optional().meta({ description: 'Region of the run’s session; default the agent’s.' }),
    wait: waitField.optional(),
  })
  .optional()
  .transform((body) => body ?? {});

/** `POST …/sessions/{session_id}/runs` body. */
export const StartSessionRunBody = z
  .strictObject({
    script: scriptField
      .optional()
      .meta({ description: 'The script to run; default the session’s own script.' }),
    input: inputField.optional(),
    env: envField.optional().meta({ description: 'The run’s variables; default the session’s env.' }),
    timeoutSec: runTimeoutField.optional(),
    wait: waitField.optional(),
  })
  .optional()
  .transform((body) => body ?? {});

/** `GET …/runs/{run_id}` query. */
export const GetRunQuery = z.object({
  wait: queryInteger(RUN_WAIT_MIN_SEC, RUN_WAIT_MAX_SEC).optional().meta({ description: waitDescription }),
});

/** `GET …/runs` query. */
export const ListRunsQuery = z.object({
  agent_id: uuidParam.optional().meta({ description: 'Only the runs of this agent.' }),
  session_id: uuidParam.optional().meta({ description: 'Only the runs on this session.' }),
  status: z.enum(RUN_STATUSES, { message: `must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
  limit: queryInteger(1, RUN_LIST_MAX_LIMIT)
    .optional()
    .meta({ description: `Page size, default ${RUN_LIST_DEFAULT_LIMIT}.` }),
  offset: queryInteger(0).optional().meta({ description: 'Runs to skip, default 0.' }),
});

/** `GET …/runs/{run_id}/logs` query. */
export const RunLogsQuery = z.object({
  cursor: z.string('must be given once').optional().meta({
    description:
      'The `nextCursor` of the previous page (the `seq` of the last line read); absent for the first page.',
  }),
  limit: queryInteger(1, RUN_LOGS_MAX_LIMIT)
    .optional()
    .meta({ description: `Page size, default ${RUN_LOGS_DEFAULT_LIMIT}.` }),
});

/** A `seq` to resume a log stream after: plain decimal digits. */
const resumeSeq = z
  .string('must be given once')
  .regex(/^\d{1,15}$/, 'must be the seq of a log line (decimal digits)')
  .transform(Number);

/** `GET …/runs/{run_id}/logs/stream` query. */
export const RunLogStreamQuery = z.object({
  lastEventId: resumeSeq.optional().meta({
    description:
      'Resume after this `seq`, for clients that cannot set `Last-Event-ID`; the header wins when both are given.',
  }),
});

/** `GET …/runs/{run_id}/logs/stream` headers. */
export const RunLogStreamHeaders = z.object({
  'Last-Event-ID': resumeSeq.optional().meta({
    description:
      'Resume after this `seq` (an `EventSource` sends the last event id itself when it reconnects).',
  }),
});

/** A run as every run endpoint answers it (http-api.md §11). */
export const RunSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    agentId: z.string().nullable().meta({ description: 'null for a run on a live session.' }),
    sessionId: z
      .string()
      .nullable()
      .meta({ description: 'The session the script drives; null until an agent run has created its own.' }),
    status: z.enum(RUN_STATUSES),
    input: z.unknown().meta({ description: 'The JSON value the run was given.' }),
    result: z
      .unknown()
      .meta({ description: 'What the script returned (any JSON value); null until SUCCEEDED.' }),
    error: z
      .object({ code: z.enum(RUN_ERROR_CODES), message: z.string() })
      .nullable()
      .meta({ description: 'Why it FAILED, TIMED_OUT or was CANCELED; null otherwise.' }),
    exitCode: z.int().nullable().meta({ description: 'The script process’s exit code, once known.' }),
    timeoutSec: z.int(),
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    endedAt: timestamp.nullable(),
    durationMs: z.int().nullable().meta({ description: 'endedAt − startedAt; null until the run ends.' }),
    logBytes: z.int().meta({ description: 'UTF-8 bytes of the log lines stored so far.' }),
  })
  .meta({ id: 'Run' });

/** `GET …/runs` response, newest first. */
export const RunPageSchema = z
  .object({
    runs: z.array(RunSchema),
    total: z.int().meta({ description: 'Runs matching the filter, over all pages.' }),
    limit: z.int(),
    offset: z.int(),
  })
  .meta({ id: 'RunPage' });

/** One line of a run's logs. */
export const RunLogLineSchema = z
  .object({
    seq: z.int().meta({ description: 'From 1, one more per line of the run.' }),
    timestamp,
    stream: z.enum(RUN_LOG_STREAMS),
    message: z.string(),
  })
  .meta({ id: 'RunLogLine' });

/** `GET …/runs/{run_id}/logs` response. */
export const RunLogPageSchema = z
  .object({
    logs: z.array(RunLogLineSchema),
    nextCursor: z.string().nullable().meta({
      description:
        'Pass it back as `cursor` for the lines after these; null once the run has ended and no line is left.',
    }),
  })
  .meta({ id: 'RunLogPage' });

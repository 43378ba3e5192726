/**
 * The console's names for the API's shapes: aliases of the types generated from the API's OpenAPI
 * document (`openapi.ts`, `npm run generate:api -w @browserdeck/console`), so a change of the API
 * shows up here as a type error, never as an empty column.
 */
import type { components, operations } from './openapi.ts';

type Schemas = components['schemas'];
/** The JSON body an operation takes. */
type JsonBody<O extends keyof operations> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The user of a sign-in (http-api.md §3). */
export type User = Schemas['User'];

/** The answer of sign-in and refresh (http-api.md §3). */
export type TokenGrant = Schemas['TokenGrant'];

/** A project (http-api.md §4). */
export type Project = Schemas['Project'];

/** A session (http-api.md §5). */
export type Session = Schemas['Session'];

/** A session's status (http-api.md §5). */
export type SessionStatus = Session['status'];

/** The order the console lists the statuses in; `satisfies` fails typecheck when the API adds one. */
const STATUS_ORDER = {
  PENDING: 0,
  RUNNING: 1,
  COMPLETED: 2,
  ERROR: 3,
  TIMED_OUT: 4,
} as const satisfies Record<SessionStatus, number>;

/** The statuses of a session, in the order the console lists them. */
export const SESSION_STATUSES = Object.keys(STATUS_ORDER) as readonly SessionStatus[];

/** What a new session may be given (http-api.md §5). */
export type SessionInput = NonNullable<JsonBody<'createSession'>>;

/** One page of sessions (http-api.md §5). */
export type SessionPage = Schemas['SessionPage'];

/**
 * One CDP event of a session's logs, in Browserbase's shape (http-api.md §5): the event's params
 * under `request.params`, or a `Network.responseReceived`'s under `response.result`.
 */
export type LogEntry = Schemas['LogEntry'];

/** One page of logs. */
export type LogPage = Schemas['SessionLogPage'];

/** A session's network as HAR 1.2 (http-api.md §5, SPEC §18). */
export type Har = Schemas['Har'];
export type SessionReplay = Schemas['SessionReplay'];
export type ReplayPage = SessionReplay['pages'][number];

/** One request of a HAR. */
export type HarEntry = Har['log']['entries'][number];

/** The live view of a session: Browserbase's `SessionLiveURLs` shape. */
export type SessionDebug = Schemas['SessionLiveUrls'];

/** A project's session statistics; `series` when an interval was asked for. */
export type SessionStats = Schemas['SessionStats'];

/** One bucket of the stats series. */
export type StatsPoint = NonNullable<SessionStats['series']>[number];

/** An agent (http-api.md §6). */
export type Agent = Schemas['Agent'];

/** The fields an agent is created with (http-api.md §6); an update takes any subset. */
export type AgentInput = JsonBody<'createAgent'>;

/** A project API key as listed (http-api.md §12). */
export type ApiKey = Schemas['ApiKey'];

/** A project API key as created: the only answer holding its `key`. */
export type CreatedApiKey = Schemas['CreatedApiKey'];

/** A run: one execution of an agent's or a session's script (http-api.md §11). */
export type Run = Schemas['Run'];

/** A run's status; the last four are terminal and final. */
export type RunStatus = Run['status'];

/** The order the console lists them in; `satisfies` fails typecheck when the API adds one. */
const RUN_STATUS_ORDER = {
  QUEUED: 0,
  RUNNING: 1,
  SUCCEEDED: 2,
  FAILED: 3,
  TIMED_OUT: 4,
  CANCELED: 5,
} as const satisfies Record<RunStatus, number>;

/** The statuses of a run, in the order the console lists them. */
export const RUN_STATUSES = Object.keys(RUN_STATUS_ORDER) as readonly RunStatus[];

/** What starting an agent's run takes (http-api.md §11). */
export type AgentRunInput = NonNullable<JsonBody<'startAgentRun'>>;

/** One page of runs, newest first. */
export type RunPage = Schemas['RunPage'];

/** One line of a run's logs, as the log stream's `log` events carry it. */
export type RunLogLine = Schemas['RunLogLine'];

/** A project as listed for the caller: with the caller's role in it (SPEC §17). */
export type ProjectListItem = Schemas['ProjectListItem'];

/** A member's role in a project, least to most: viewer, developer, admin, owner (docs/teams.md). */
export type ProjectRole = ProjectListItem['role'];

/** The roles an invitation or a role change may give: all but `owner`, which passes by transfer. */
export type GrantableRole = JsonBody<'inviteMember'>['role'];

/** A member of a project, with their role (docs/teams.md). */
export type Member = Schemas['Member'];

/** An open invitation, as listed (without its link). */
export type Invitation = Schemas['Invitation'];

/** An invitation as made: the only answer holding its link (`url`) and token. */
export type CreatedInvitation = Schemas['CreatedInvitation'];

/** One entry of a project's audit log. */
export type AuditEntry = Schemas['AuditEntry'];

/** One page of the audit log, newest first. */
export type AuditPage = Schemas['AuditPage'];

/** An account as an operator lists it: its projects and usage. */
export type AccountSummary = Schemas['AccountSummary'];

/** What an account's projects used. */
export type AccountUsage = Schemas['AccountUsage'];

/** An account, as disabling or enabling it answers. */
export type Account = Schemas['Account'];

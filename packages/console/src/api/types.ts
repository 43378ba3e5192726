/** The user of a sign-in (http-api.md §3). */
export interface User {
  id: string;
  email: string;
}

/** The answer of sign-in and refresh (http-api.md §3). */
export interface TokenGrant {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
  /** ISO 8601 time the access token expires at. */
  expires_at: string;
  user: User;
}

/** A project (http-api.md §4). */
export interface Project {
  id: string;
  name: string;
  slug: string;
  archived: boolean;
  created_at: string;
  updated_at: string;
}

/** The statuses of a session, in the order the console lists them. */
export const SESSION_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'ERROR', 'TIMED_OUT'] as const;
/** A session's status (http-api.md §5). */
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** A session (http-api.md §5). */
export interface Session {
  id: string;
  providerSessionId: string;
  providerProjectId: string | null;
  status: SessionStatus;
  connectUrl: string | null;
  seleniumRemoteUrl: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  expiresAt: string | null;
  lastSyncedAt: string | null;
  userMetadata: { script: string | null; env: Record<string, string> };
  name: string;
  region: string | null;
  timeoutSec: number;
  extensionId: string | null;
  contextId: string | null;
  agentId: string | null;
  provider: string;
}

/** One page of sessions (http-api.md §5). */
export interface SessionPage {
  sessions: Session[];
  total: number;
  limit: number;
  offset: number;
}

/** One CDP event of a session's logs (http-api.md §5). */
export interface LogEntry {
  timestamp: string | number;
  method: string;
  pageId: string | number;
  frameId?: string;
  loaderId?: string;
  request?: { url?: string; method?: string } & Record<string, unknown>;
  response?: { url?: string; status?: number } & Record<string, unknown>;
}

/** One page of logs. */
export interface LogPage {
  logs: LogEntry[];
  nextCursor: string | null;
}

/** The live view of a session: Browserbase's `SessionLiveURLs` shape. */
export interface SessionDebug {
  debuggerUrl: string;
  debuggerFullscreenUrl: string;
  wsUrl: string;
  pages: Array<{
    id: string;
    url: string;
    title: string;
    faviconUrl: string;
    debuggerUrl: string;
    debuggerFullscreenUrl: string;
  }>;
}

/** One bucket of the stats series. */
export interface StatsPoint {
  start: string;
  created: number;
  completed: number;
  errored: number;
  timedOut: number;
  browserSec: number;
}

/** A project's session statistics; `series` when an interval was asked for. */
export interface SessionStats {
  total: number;
  byStatus: Record<SessionStatus, number>;
  createdLast24h: number;
  avgDurationSec: number;
  totalBrowserSec: number;
  series?: StatsPoint[];
}

/** An agent (http-api.md §6). */
export interface Agent {
  id: string;
  projectId: string;
  name: string;
  description: string;
  script: string;
  envVars: Record<string, string>;
  providerProjectId: string | null;
  contextId: string | null;
  extensionId: string | null;
  region: string | null;
  timeoutSec: number;
  active: boolean;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** The fields a console form sends for an agent. */
export interface AgentInput {
  name: string;
  description: string;
  script: string;
  envVars: Record<string, string>;
  timeoutSec: number;
  active: boolean;
  region?: string;
}

/** A project API key (http-api.md §12); `key` only in the create answer. */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  key?: string;
}

import type { CreateAgent } from '../agents/CreateAgent.ts';
import type { DeleteAgent } from '../agents/DeleteAgent.ts';
import type { GetAgent } from '../agents/GetAgent.ts';
import type { ListAgents } from '../agents/ListAgents.ts';
import type { UpdateAgent } from '../agents/UpdateAgent.ts';
import type { CreateApiKey } from '../apiKeys/CreateApiKey.ts';
import type { ListApiKeys } from '../apiKeys/ListApiKeys.ts';
import type { RevokeApiKey } from '../apiKeys/RevokeApiKey.ts';
import type { Authenticate } from '../auth/Authenticate.ts';
import type { GetCurrentUser } from '../auth/GetCurrentUser.ts';
import type { RefreshSession } from '../auth/RefreshSession.ts';
import type { SignIn } from '../auth/SignIn.ts';
import type { SignOut } from '../auth/SignOut.ts';
import type { SignUp } from '../auth/SignUp.ts';
import type { SyncUser } from '../auth/SyncUser.ts';
import type { CreateContext } from '../contexts/CreateContext.ts';
import type { DeleteContext } from '../contexts/DeleteContext.ts';
import type { GetContext } from '../contexts/GetContext.ts';
import type { DeleteExtension } from '../extensions/DeleteExtension.ts';
import type { GetExtension } from '../extensions/GetExtension.ts';
import type { ListExtensions } from '../extensions/ListExtensions.ts';
import type { UploadExtension } from '../extensions/UploadExtension.ts';
import type { ArchiveProject } from '../projects/ArchiveProject.ts';
import type { CreateProject } from '../projects/CreateProject.ts';
import type { DeleteProject } from '../projects/DeleteProject.ts';
import type { GetProject } from '../projects/GetProject.ts';
import type { ListProjects } from '../projects/ListProjects.ts';
import type { UpdateProject } from '../projects/UpdateProject.ts';
import type { CancelRun } from '../runs/CancelRun.ts';
import type { ExecuteRun } from '../runs/ExecuteRun.ts';
import type { FollowRunLogs } from '../runs/FollowRunLogs.ts';
import type { GetRun } from '../runs/GetRun.ts';
import type { GetRunLogs } from '../runs/GetRunLogs.ts';
import type { ListRuns } from '../runs/ListRuns.ts';
import type { PruneOldRuns } from '../runs/PruneOldRuns.ts';
import type { ReapLostRuns } from '../runs/ReapLostRuns.ts';
import type { StartAgentRun } from '../runs/StartAgentRun.ts';
import type { StartSessionRun } from '../runs/StartSessionRun.ts';
import type { CheckLiveViewGrant } from '../sessions/CheckLiveViewGrant.ts';
import type { CreateSession } from '../sessions/CreateSession.ts';
import type { EndLostInstanceSessions } from '../sessions/EndLostInstanceSessions.ts';
import type { GetSession } from '../sessions/GetSession.ts';
import type { GetSessionDownloads } from '../sessions/GetSessionDownloads.ts';
import type { GetSessionLiveView } from '../sessions/GetSessionLiveView.ts';
import type { GetSessionLogs } from '../sessions/GetSessionLogs.ts';
import type { GetSessionStats } from '../sessions/GetSessionStats.ts';
import type { ListSessions } from '../sessions/ListSessions.ts';
import type { OpenLiveView } from '../sessions/OpenLiveView.ts';
import type { ReconcileSessions } from '../sessions/ReconcileSessions.ts';
import type { ReleaseSession } from '../sessions/ReleaseSession.ts';
import type { UploadSessionFile } from '../sessions/UploadSessionFile.ts';

/** Sign-up, sign-in, tokens and the current user. */
export interface AuthUseCases {
  signUp: SignUp;
  signIn: SignIn;
  refreshSession: RefreshSession;
  signOut: SignOut;
  authenticate: Authenticate;
  getCurrentUser: GetCurrentUser;
  syncUser: SyncUser;
}

/** A user's projects. */
export interface ProjectUseCases {
  create: CreateProject;
  list: ListProjects;
  get: GetProject;
  update: UpdateProject;
  archive: ArchiveProject;
  delete: DeleteProject;
}

/** Cloud-browser sessions in a project, and the background refresh of their status. */
export interface SessionUseCases {
  create: CreateSession;
  list: ListSessions;
  get: GetSession;
  release: ReleaseSession;
  logs: GetSessionLogs;
  stats: GetSessionStats;
  /** The files the session's browser downloaded, as a zip (http-api.md §5). */
  downloads: GetSessionDownloads;
  /** Puts a file where the session's page may take it (`setInputFiles`). */
  upload: UploadSessionFile;
  /** The live-view URLs of a session (http-api.md §14). */
  liveView: GetSessionLiveView;
  /** Admits a live-view viewer by its token (the page and its WebSocket). */
  openLiveView: OpenLiveView;
  /** Re-checks an open viewer's grant: false once its project, key or sign-in no longer holds. */
  checkLiveViewGrant: CheckLiveViewGrant;
  reconcile: ReconcileSessions;
  /** Ends as `ERROR` the active sessions of an instance that is gone (its browsers went with it). */
  endLostInstance: EndLostInstanceSessions;
}

/** Stored agents in a project. */
export interface AgentUseCases {
  create: CreateAgent;
  list: ListAgents;
  get: GetAgent;
  update: UpdateAgent;
  delete: DeleteAgent;
}

/** A project's browser contexts (stored profiles) at the configured provider. */
export interface ContextUseCases {
  create: CreateContext;
  get: GetContext;
  delete: DeleteContext;
}

/** A project's API keys (http-api.md §12). */
export interface ApiKeyUseCases {
  create: CreateApiKey;
  list: ListApiKeys;
  revoke: RevokeApiKey;
}

/** A project's stored browser extensions (http-api.md §5, §13), which sessions load by `extensionId`. */
export interface ExtensionUseCases {
  upload: UploadExtension;
  list: ListExtensions;
  get: GetExtension;
  delete: DeleteExtension;
}

/** Runs of agents' and sessions' scripts (http-api.md §11), and the worker's side of them. */
export interface RunUseCases {
  startAgentRun: StartAgentRun;
  startSessionRun: StartSessionRun;
  get: GetRun;
  list: ListRuns;
  cancel: CancelRun;
  logs: GetRunLogs;
  followLogs: FollowRunLogs;
  /** A worker's job: executes one queued run. */
  execute: ExecuteRun;
  /** Ends runs whose worker stopped answering (`worker_lost`). */
  reapLost: ReapLostRuns;
  /** Deletes runs and their logs past their retention (`RUN_RETENTION_DAYS`). */
  prune: PruneOldRuns;
}

/**
 * Every use case, grouped by feature: what an in-process host calls (`useCases.projects.list
 * .execute({ caller: asUser(userId) })`), with the same rules an HTTP client gets.
 */
export interface BrowserdeckUseCases {
  auth: AuthUseCases;
  projects: ProjectUseCases;
  sessions: SessionUseCases;
  agents: AgentUseCases;
  apiKeys: ApiKeyUseCases;
  contexts: ContextUseCases;
  extensions: ExtensionUseCases;
  runs: RunUseCases;
}

import { CreateAgent } from '../agents/CreateAgent.ts';
import { DeleteAgent } from '../agents/DeleteAgent.ts';
import { GetAgent } from '../agents/GetAgent.ts';
import { ListAgents } from '../agents/ListAgents.ts';
import { UpdateAgent } from '../agents/UpdateAgent.ts';
import { CreateApiKey } from '../apiKeys/CreateApiKey.ts';
import { ListApiKeys } from '../apiKeys/ListApiKeys.ts';
import { RevokeApiKey } from '../apiKeys/RevokeApiKey.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { ListAuditEntries } from '../audit/ListAuditEntries.ts';
import { PruneAuditLog } from '../audit/PruneAuditLog.ts';
import { AccountAdmission } from '../auth/AccountAdmission.ts';
import { Authenticate } from '../auth/Authenticate.ts';
import { GetCurrentUser } from '../auth/GetCurrentUser.ts';
import { RefreshSession } from '../auth/RefreshSession.ts';
import { SignIn } from '../auth/SignIn.ts';
import { SignOut } from '../auth/SignOut.ts';
import { SignUp } from '../auth/SignUp.ts';
import { SyncUser } from '../auth/SyncUser.ts';
import { CreateContext } from '../contexts/CreateContext.ts';
import { DeleteContext } from '../contexts/DeleteContext.ts';
import { GetContext } from '../contexts/GetContext.ts';
import { DeleteExtension } from '../extensions/DeleteExtension.ts';
import { GetExtension } from '../extensions/GetExtension.ts';
import { ListExtensions } from '../extensions/ListExtensions.ts';
import { UploadExtension } from '../extensions/UploadExtension.ts';
import { AcceptInvitation } from '../members/AcceptInvitation.ts';
import { ChangeMemberRole } from '../members/ChangeMemberRole.ts';
import { InviteMember } from '../members/InviteMember.ts';
import { ListInvitations } from '../members/ListInvitations.ts';
import { ListMembers } from '../members/ListMembers.ts';
import { RemoveMember } from '../members/RemoveMember.ts';
import { RevokeInvitation } from '../members/RevokeInvitation.ts';
import { TransferProject } from '../members/TransferProject.ts';
import { DisableAccount } from '../operators/DisableAccount.ts';
import { EnableAccount } from '../operators/EnableAccount.ts';
import { GetUsage } from '../operators/GetUsage.ts';
import { InviteAccount } from '../operators/InviteAccount.ts';
import { ListAccounts } from '../operators/ListAccounts.ts';
import { ArchiveProject } from '../projects/ArchiveProject.ts';
import { CreateProject } from '../projects/CreateProject.ts';
import { DeleteProject } from '../projects/DeleteProject.ts';
import { GetProject } from '../projects/GetProject.ts';
import { ListProjects } from '../projects/ListProjects.ts';
import { UpdateProject } from '../projects/UpdateProject.ts';
import { CancelRun } from '../runs/CancelRun.ts';
import { ExecuteRun } from '../runs/ExecuteRun.ts';
import { FollowRunLogs } from '../runs/FollowRunLogs.ts';
import { GetRun } from '../runs/GetRun.ts';
import { GetRunLogs } from '../runs/GetRunLogs.ts';
import { ListRuns } from '../runs/ListRuns.ts';
import { PruneOldRuns } from '../runs/PruneOldRuns.ts';
import { ReapLostRuns } from '../runs/ReapLostRuns.ts';
import { RunWaiters } from '../runs/RunWaiters.ts';
import { StartAgentRun } from '../runs/StartAgentRun.ts';
import { StartSessionRun } from '../runs/StartSessionRun.ts';
import { CheckLiveViewGrant } from '../sessions/CheckLiveViewGrant.ts';
import { CreateSession } from '../sessions/CreateSession.ts';
import { EndLostInstanceSessions } from '../sessions/EndLostInstanceSessions.ts';
import { GetSession } from '../sessions/GetSession.ts';
import { GetSessionDownloads } from '../sessions/GetSessionDownloads.ts';
import { GetSessionHar } from '../sessions/GetSessionHar.ts';
import { GetSessionLiveView } from '../sessions/GetSessionLiveView.ts';
import { GetSessionLogs } from '../sessions/GetSessionLogs.ts';
import { GetSessionReplay } from '../sessions/GetSessionReplay.ts';
import { GetSessionStats } from '../sessions/GetSessionStats.ts';
import { ListSessions } from '../sessions/ListSessions.ts';
import { OpenLiveView } from '../sessions/OpenLiveView.ts';
import { ReconcileSessions } from '../sessions/ReconcileSessions.ts';
import { ReleaseSession } from '../sessions/ReleaseSession.ts';
import { UploadSessionFile } from '../sessions/UploadSessionFile.ts';
import type { UseCasePorts } from './UseCasePorts.ts';

/**
 * Builds every use case from one set of ports: the single list of use cases, which every host
 * (the HTTP app, the standalone server, an embedding app, the test app) gets through the library's
 * composition instead of wiring its own. Its return type is the one list's type
 * (`BrowserdeckUseCases`); what the HTTP routes need is picked from it.
 */
export function createUseCases(ports: UseCasePorts) {
  const { identity, users, projects, sessions, agents, idempotency, rateLimiter, provider } = ports;
  const { apiKeys, apiKeySecrets: secrets, extensions, extensionInspector } = ports;
  const { clock, ids, logger, rateLimits, cursorSigner, liveViewSigner } = ports;
  const { runs, runLogs, runQueue, runChanges, scriptRunner, timers } = ports;
  const { members, invitations, auditLog, usage, transactions } = ports;
  // The one way a change and its audit entry are written together (SPEC §17).
  const audit = new AuditTrail({ auditLog, transactions, ids, clock });
  // Who may make an account (`SIGNUP`) and who is an operator (`ADMIN_EMAILS`).
  const admission = new AccountAdmission({
    ...{ invitations, secrets, clock },
    ...{ signupMode: ports.signupMode, adminEmails: ports.adminEmails },
  });
  const membersDeps = { projects, members, invitations, users, secrets, audit, ids, clock };
  const operatorsDeps = {
    ...{ users, projects, invitations, usage, admission, secrets, audit, ids, clock, logger },
    ...{ sessions, provider, runs, runQueue, runChanges },
  };
  // One count of the log streams and long polls each account holds open, for both use cases.
  const waiters = new RunWaiters(ports.runMaxWaitersPerOwner);
  const createSession = new CreateSession({
    ...{ projects, agents, sessions, provider, idempotency, extensions },
    ...{ ids, clock, logger, audit },
  });
  const releaseSession = new ReleaseSession({ projects, sessions, provider, clock });
  return {
    /** Sign-up, sign-in, tokens and the current user. */
    auth: {
      signUp: new SignUp({ identity, users, invitations, admission, rateLimiter, clock, rateLimits }),
      signIn: new SignIn({ identity, users, rateLimiter, rateLimits }),
      refreshSession: new RefreshSession({ identity, users }),
      signOut: new SignOut({ identity }),
      authenticate: new Authenticate({ identity, apiKeys, secrets, projects, users, clock, logger }),
      getCurrentUser: new GetCurrentUser({ users, clock }),
      syncUser: new SyncUser({ users, admission, projects, ids, clock }),
    },
    /** The projects a user is a member of. */
    projects: {
      create: new CreateProject({
        projects,
        audit,
        ids,
        clock,
        maxProjectsPerUser: ports.maxProjectsPerUser,
      }),
      list: new ListProjects({ projects }),
      get: new GetProject({ projects }),
      update: new UpdateProject({ projects, audit, clock }),
      archive: new ArchiveProject({ projects, audit, clock }),
      delete: new DeleteProject({
        projects,
        audit,
        sessions,
        provider,
        runs,
        runQueue,
        runChanges,
        clock,
        logger,
      }),
      /** Hands the project to another member (the owner only). */
      transfer: new TransferProject(membersDeps),
      /** The project's audit log (admins). */
      audit: new ListAuditEntries({ projects, auditLog }),
    },
    /** A project's members and invitations (SPEC §17). */
    members: {
      list: new ListMembers(membersDeps),
      invite: new InviteMember(membersDeps),
      accept: new AcceptInvitation(membersDeps),
      changeRole: new ChangeMemberRole(membersDeps),
      remove: new RemoveMember(membersDeps),
      listInvitations: new ListInvitations(membersDeps),
      revokeInvitation: new RevokeInvitation(membersDeps),
    },
    /** What operators (`ADMIN_EMAILS`) do: accounts, their invitations, disabling, usage. */
    operators: {
      listAccounts: new ListAccounts(operatorsDeps),
      inviteAccount: new InviteAccount(operatorsDeps),
      disableAccount: new DisableAccount(operatorsDeps),
      enableAccount: new EnableAccount(operatorsDeps),
      usage: new GetUsage(operatorsDeps),
      /** Deletes audit entries past `AUDIT_RETENTION_DAYS`. */
      pruneAudit: new PruneAuditLog({ auditLog, clock, retentionDays: ports.auditRetentionDays }),
    },
    /** Cloud-browser sessions in a project, and the background refresh of their status. */
    sessions: {
      create: createSession,
      list: new ListSessions({ projects, sessions }),
      get: new GetSession({ projects, sessions, provider, clock, logger }),
      release: releaseSession,
      logs: new GetSessionLogs({ projects, sessions, provider, cursorSigner }),
      /** The session's network as HAR 1.2 (SPEC §18), from any instance. */
      har: new GetSessionHar({ projects, sessions, provider }),
      /** The session's recording: replay, videos and signed downloads (SPEC §18), from any instance. */
      replay: new GetSessionReplay({ projects, sessions, provider, clock, signer: liveViewSigner }),
      stats: new GetSessionStats({ projects, sessions, clock }),
      /** The files the session's browser downloaded, as a zip (http-api.md §5). */
      downloads: new GetSessionDownloads({ projects, sessions, provider }),
      /** Puts a file where the session's page may take it (`setInputFiles`). */
      upload: new UploadSessionFile({ projects, sessions, provider, maxBytes: ports.uploadMaxBytes, logger }),
      /** The live-view URLs of a session (http-api.md §14). */
      liveView: new GetSessionLiveView({
        projects,
        sessions,
        provider,
        clock,
        signer: liveViewSigner,
        tokenTtlSec: ports.liveViewTokenTtlSec,
      }),
      /** Admits a live-view viewer by its token (the page and its WebSocket). */
      openLiveView: new OpenLiveView({
        sessions,
        provider,
        projects,
        apiKeys,
        users,
        identity,
        clock,
        signer: liveViewSigner,
      }),
      /** Re-checks an open viewer's grant: false once its project, key or sign-in no longer holds. */
      checkLiveViewGrant: new CheckLiveViewGrant({ projects, apiKeys, users, identity, clock }),
      reconcile: new ReconcileSessions({ sessions, projects, provider, clock, logger }),
      /** Ends as `ERROR` the active sessions of an instance that is gone (its browsers went with it). */
      endLostInstance: new EndLostInstanceSessions({ sessions, provider, clock, logger }),
    },
    /** Stored agents in a project. */
    agents: {
      create: new CreateAgent({ projects, agents, provider, audit, ids, clock }),
      list: new ListAgents({ projects, agents }),
      get: new GetAgent({ projects, agents }),
      update: new UpdateAgent({ projects, agents, provider, audit, clock }),
      delete: new DeleteAgent({ projects, agents, audit }),
    },
    /** A project's API keys (http-api.md §12). */
    apiKeys: {
      create: new CreateApiKey({ projects, apiKeys, secrets, audit, ids, clock }),
      list: new ListApiKeys({ projects, apiKeys }),
      revoke: new RevokeApiKey({ projects, apiKeys, audit, clock }),
    },
    /** A project's browser contexts (stored profiles) at the configured provider. */
    contexts: {
      create: new CreateContext({ projects, provider }),
      get: new GetContext({ projects, provider }),
      delete: new DeleteContext({ projects, provider }),
    },
    /** A project's stored browser extensions (http-api.md §5, §13), which sessions load by `extensionId`. */
    extensions: {
      upload: new UploadExtension({
        ...{ projects, extensions, provider, ids, clock, logger },
        inspector: extensionInspector,
      }),
      list: new ListExtensions({ projects, extensions }),
      get: new GetExtension({ projects, extensions }),
      delete: new DeleteExtension({ projects, extensions, provider }),
    },
    /** Runs of agents' and sessions' scripts (http-api.md §11), and the worker's side of them. */
    runs: {
      startAgentRun: new StartAgentRun({
        ...{ projects, agents, runs, runQueue, runChanges, provider, idempotency, audit, ids, clock },
        maxQueuedPerOwner: ports.runMaxQueuedPerOwner,
      }),
      startSessionRun: new StartSessionRun({
        ...{ projects, sessions, runs, runQueue, runChanges, idempotency, audit, ids, clock },
        maxQueuedPerOwner: ports.runMaxQueuedPerOwner,
      }),
      get: new GetRun({ projects, runs, runChanges, clock, waiters }),
      list: new ListRuns({ projects, runs }),
      cancel: new CancelRun({ projects, runs, runQueue, runChanges, clock }),
      logs: new GetRunLogs({ projects, runs, runLogs }),
      followLogs: new FollowRunLogs({ projects, runs, runLogs, runChanges, waiters }),
      /** A worker's job: executes one queued run. */
      execute: new ExecuteRun({
        ...{ runs, runLogs, runQueue, runChanges, scriptRunner, timers, clock, sessions, provider },
        ...{ createSession, releaseSession, logger },
        maxLogBytes: ports.runMaxLogBytes,
      }),
      /** Ends runs whose worker stopped answering (`worker_lost`). */
      reapLost: new ReapLostRuns({ runs, runChanges, sessions, releaseSession, clock, logger }),
      /** Deletes runs and their logs past their retention (`RUN_RETENTION_DAYS`). */
      prune: new PruneOldRuns({ runs, runLogs, clock, retentionDays: ports.runRetentionDays }),
    },
  };
}

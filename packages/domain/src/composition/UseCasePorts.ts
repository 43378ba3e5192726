import type { AgentRepository } from '../agents/AgentRepository.ts';
import type { ApiKeyRepository } from '../apiKeys/ApiKeyRepository.ts';
import type { ApiKeySecrets } from '../apiKeys/ApiKeySecrets.ts';
import type { AuditLog } from '../audit/AuditLog.ts';
import type { AuthRateLimits } from '../auth/authRateLimits.ts';
import type { IdentityProvider } from '../auth/IdentityProvider.ts';
import type { SignupMode } from '../auth/signupModes.ts';
import type { UserRepository } from '../auth/UserRepository.ts';
import type { ExtensionArchiveInspector } from '../extensions/ExtensionArchiveInspector.ts';
import type { ExtensionRepository } from '../extensions/ExtensionRepository.ts';
import type { InvitationRepository } from '../members/InvitationRepository.ts';
import type { MemberRepository } from '../members/MemberRepository.ts';
import type { UsageRepository } from '../operators/UsageRepository.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { RunChanges } from '../runs/RunChanges.ts';
import type { RunLogStore } from '../runs/RunLogStore.ts';
import type { RunQueue } from '../runs/RunQueue.ts';
import type { RunRepository } from '../runs/RunRepository.ts';
import type { ScriptRunner } from '../runs/ScriptRunner.ts';
import type { IdempotencyStore } from '../sessions/IdempotencyStore.ts';
import type { CursorSigner } from '../sessions/logCursor.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import type { Logger } from '../shared/Logger.ts';
import type { RateLimiter } from '../shared/RateLimiter.ts';
import type { Timers } from '../shared/Timers.ts';
import type { Transactions } from '../shared/Transactions.ts';

/**
 * Every port the use cases need, once. Nothing here is optional that would weaken a rule when left
 * out: the provider (deleting a project releases its browsers) and the signers (log cursors and
 * live-view tokens cannot be forged) are required.
 */
export interface UseCasePorts {
  identity: IdentityProvider;
  users: UserRepository;
  projects: ProjectRepository;
  /** Project members beside the owner, and invitations to join (SPEC §17). */
  members: MemberRepository;
  invitations: InvitationRepository;
  /** Who did what (SPEC §17); written in the transaction of the change it records. */
  auditLog: AuditLog;
  /** Browser time, sessions, runs and proxy bytes per account, for operators. */
  usage: UsageRepository;
  /** Makes a change and its audit entry one transaction. */
  transactions: Transactions;
  /** Who may make an account (`SIGNUP`): `open` (default), `invite` or `closed`. */
  signupMode?: SignupMode | undefined;
  /** The operators' e-mails (`ADMIN_EMAILS`), normalised; none by default. */
  adminEmails?: readonly string[] | undefined;
  /** Days audit entries are kept (`AUDIT_RETENTION_DAYS`); default `AUDIT_RETENTION_DAYS_DEFAULT`. */
  auditRetentionDays?: number | undefined;
  sessions: SessionRepository;
  agents: AgentRepository;
  apiKeys: ApiKeyRepository;
  /** Makes and checks API key secrets (random bytes, SHA-256, constant-time comparison). */
  apiKeySecrets: ApiKeySecrets;
  idempotency: IdempotencyStore;
  /** A project's uploaded extensions and their zips. */
  extensions: ExtensionRepository;
  /** Checks an uploaded extension zip (manifest, paths, limits) before it is stored. */
  extensionInspector: ExtensionArchiveInspector;
  rateLimiter: RateLimiter;
  provider: BrowserProvider;
  /** Signs log cursors with a key (e.g. an HMAC), so a client cannot forge a position. */
  cursorSigner: CursorSigner;
  /**
   * Signs live-view tokens (http-api.md §14) with a key of their own (e.g. `secrets.signer('live-view')`),
   * and the recordings' short-lived download URLs (SPEC §18; each kind of token signs its own purpose,
   * so one never passes for the other). Required, and never an unkeyed checksum: a token lets its
   * holder watch and drive a browser.
   */
  liveViewSigner: CursorSigner;
  /** Lifetime of live-view tokens, in seconds; default 3600. */
  liveViewTokenTtlSec?: number | undefined;
  clock: Clock;
  ids: IdGenerator;
  logger?: Logger | undefined;
  /** Projects one account may hold (default `PROJECTS_PER_USER_DEFAULT`). */
  maxProjectsPerUser?: number | undefined;
  /** Sign-in and sign-up attempts a minute; the contract's defaults when absent. */
  rateLimits?: AuthRateLimits | undefined;
  /** Runs (http-api.md §11): where they are kept, queued, woken, executed and heart-beaten. */
  runs: RunRepository;
  runLogs: RunLogStore;
  runQueue: RunQueue;
  runChanges: RunChanges;
  scriptRunner: ScriptRunner;
  timers: Timers;
  /** A run's log budget in UTF-8 bytes (`RUN_MAX_LOG_BYTES`); default `RUN_MAX_LOG_BYTES_DEFAULT`. */
  runMaxLogBytes?: number | undefined;
  /** Runs an account may have QUEUED (`RUN_MAX_QUEUED_PER_OWNER`); default `RUN_MAX_QUEUED_PER_OWNER_DEFAULT`. */
  runMaxQueuedPerOwner?: number | undefined;
  /**
   * Log streams and `wait` long polls an account may hold open at once on this instance
   * (`RUN_MAX_WAITERS_PER_OWNER`); default `RUN_MAX_WAITERS_PER_OWNER_DEFAULT`.
   */
  runMaxWaitersPerOwner?: number | undefined;
  /** Days a run and its logs are kept after it ended (`RUN_RETENTION_DAYS`); default `RUN_RETENTION_DAYS_DEFAULT`. */
  runRetentionDays?: number | undefined;
  /** Largest session upload in bytes (`UPLOAD_MAX_MB`); default `UPLOAD_MAX_BYTES_DEFAULT`. */
  uploadMaxBytes?: number | undefined;
}

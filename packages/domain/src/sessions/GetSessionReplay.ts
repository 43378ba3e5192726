import type { Caller } from '../access/Caller.ts';
import { asSystem } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { RecordingFile } from '../providers/ProviderCapabilities.ts';
import type { Clock } from '../shared/Clock.ts';
import { AuthError, NotFoundError } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { findSession } from './findSession.ts';
import type { CursorSigner } from './logCursor.ts';
import type { SessionRepository } from './SessionRepository.ts';
import {
  issueReplayLinkToken,
  readReplayLinkToken,
  recordingOf,
  replayOf,
  requireFinished,
  type SessionReplay,
} from './sessionReplay.ts';

export interface SessionReplayDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  /** Signs the replay links (downloads, HLS segments). */
  signer: CursorSigner;
  /** How long a replay link works, in seconds; default `REPLAY_LINK_TTL_SEC_DEFAULT`. */
  linkTtlSec?: number | undefined;
}

/** The lifetime of a replay link by default: an hour. */
export const REPLAY_LINK_TTL_SEC_DEFAULT = 3600;

/** A tab's MP4 download as Browserbase's `recording.downloads.list` answers it. */
export interface ReplayDownload {
  readonly pageId: string;
  readonly status: 'NOT_REQUESTED' | 'PENDING' | 'COMPLETED' | 'FAILED';
  /** With `COMPLETED`: the token of the tab's replay link (a signed URL that needs no key). */
  readonly token: string | null;
  readonly completedAt: Date | null;
}

type SessionRef = { caller: Caller; projectId: string; sessionId: string };

/**
 * A session's recording (SPEC §18), from any instance: its replay (status and pages); a file of a
 * tab's video once the session has ended and its videos are made; short-lived links to a tab's
 * files that need no key (the playlist's segments, Browserbase's `downloadUrl`); and the MP4
 * downloads (Browserbase's `recording.downloads`). Reading needs the `viewer` role.
 */
export class GetSessionReplay {
  private readonly deps: SessionReplayDeps;

  constructor(deps: SessionReplayDeps) {
    this.deps = deps;
  }

  /** The replay: `RECORDING`, `PROCESSING`, `READY`, `FAILED`, `NONE` or `EXPIRED`, with its pages. */
  async execute(input: SessionRef): Promise<SessionReplay> {
    const { session } = await this.find(input);
    return replayOf(recordingOf(this.deps.provider), session, this.deps.clock.now());
  }

  /**
   * The replay once its videos are made (Browserbase's `replays.retrieve`): `session_active` while
   * the session runs, `recording_processing` while they are made, `not_recorded`, `recording_expired`.
   */
  async finished(input: SessionRef): Promise<SessionReplay> {
    const { session } = await this.find(input);
    const replay = await replayOf(recordingOf(this.deps.provider), session, this.deps.clock.now());
    requireFinished(session, replay);
    return replay;
  }

  /**
   * One file of a tab's finished video (the MP4, the HLS playlist or a segment), with the token of
   * the tab's replay link (what a playlist's segments are fetched by).
   */
  async file(
    input: SessionRef & { pageId: string; file: RecordingFile },
  ): Promise<{ bytes: Uint8Array; linkToken: string }> {
    const { session } = await this.find(input);
    return this.finishedFile(session, input.pageId, input.file);
  }

  /** A file of the tab a replay link's token names, with no other credential; `unauthorized` past its expiry. */
  async linked(
    token: string,
    file: RecordingFile,
  ): Promise<{ sessionId: string; pageId: string; bytes: Uint8Array }> {
    const claims = readReplayLinkToken(this.deps.signer, token);
    if (!claims || claims.expiresAt.getTime() <= this.deps.clock.now().getTime()) {
      throw new AuthError(
        'unauthorized',
        'This replay link is not valid or has expired; ask for the replay again.',
      );
    }
    const { projectId, sessionId, pageId } = claims;
    const { session } = await this.find({ caller: asSystem(projectId), projectId, sessionId });
    const { bytes } = await this.finishedFile(session, pageId, file);
    return { sessionId, pageId, bytes };
  }

  /**
   * The downloads of each tab: `NOT_REQUESTED` until `requestDownloads`, then `PENDING` while the
   * videos are made, `COMPLETED` with a replay link's token, or `FAILED`. Refused, as Browserbase
   * does, while the session runs, when it was not recorded, and past the retention.
   */
  async downloads(input: SessionRef): Promise<ReplayDownload[]> {
    const { session } = await this.find(input);
    const replay = await replayOf(recordingOf(this.deps.provider), session, this.deps.clock.now());
    if (replay.status === 'PROCESSING' || replay.status === 'FAILED') {
      const status = !replay.downloadsRequested
        ? 'NOT_REQUESTED'
        : replay.status === 'FAILED'
          ? 'FAILED'
          : 'PENDING';
      return replay.pages.map((page) => ({ pageId: page.pageId, status, token: null, completedAt: null }));
    }
    const ready = requireFinished(session, replay);
    return ready.pages.map((page) =>
      ready.downloadsRequested
        ? {
            pageId: page.pageId,
            status: 'COMPLETED',
            token: this.linkToken(session, page.pageId),
            completedAt: ready.completedAt,
          }
        : { pageId: page.pageId, status: 'NOT_REQUESTED', token: null, completedAt: null },
    );
  }

  /**
   * Asks for the MP4 downloads (Browserbase's `recording.downloads.create`): every tab `PENDING`, as
   * Browserbase answers (its assembly is asynchronous); the list then says `COMPLETED` once made.
   */
  async requestDownloads(input: SessionRef): Promise<ReplayDownload[]> {
    const { session } = await this.find(input);
    const recording = recordingOf(this.deps.provider);
    const replay = await replayOf(recording, session, this.deps.clock.now());
    if (replay.status !== 'PROCESSING' && replay.status !== 'FAILED') requireFinished(session, replay);
    await recording.requestDownloads(session.providerSessionId);
    return replay.pages.map((page) => ({
      pageId: page.pageId,
      status: 'PENDING',
      token: null,
      completedAt: null,
    }));
  }

  private async finishedFile(
    session: BrowserSession,
    pageId: string,
    file: RecordingFile,
  ): Promise<{ bytes: Uint8Array; linkToken: string }> {
    const recording = recordingOf(this.deps.provider);
    requireFinished(session, await replayOf(recording, session, this.deps.clock.now()));
    const bytes = await recording.file(session.providerSessionId, pageId, file);
    if (!bytes) throw new NotFoundError('Page');
    return { bytes, linkToken: this.linkToken(session, pageId) };
  }

  private linkToken(session: BrowserSession, pageId: string): string {
    const ttlMs = (this.deps.linkTtlSec ?? REPLAY_LINK_TTL_SEC_DEFAULT) * 1000;
    return issueReplayLinkToken(this.deps.signer, {
      projectId: session.projectId,
      sessionId: session.id,
      pageId,
      expiresAt: new Date(this.deps.clock.now().getTime() + ttlMs),
    });
  }

  private async find(input: SessionRef) {
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    return { project, session };
  }
}

import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type {
  RecordedPage,
  RecordingCapability,
  RecordingState,
  StoredRecording,
} from '../providers/ProviderCapabilities.ts';
import { DomainError, NotImplementedError } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { CursorSigner } from './logCursor.ts';
import { issueSignedToken, readSignedToken } from './signedToken.ts';

/** A replay's status (SPEC §18): the recording's state, or `NONE` (not recorded) or `EXPIRED` (past retention). */
export type ReplayStatus = RecordingState | 'NONE' | 'EXPIRED';

/** A session's replay as the routes answer it. */
export interface SessionReplay {
  readonly status: ReplayStatus;
  readonly bytes: number;
  readonly capped: boolean;
  readonly error: string | null;
  readonly completedAt: Date | null;
  readonly downloadsRequested: boolean;
  readonly pages: readonly RecordedPage[];
}

/** The recording capability of `provider`, or `not_implemented`. */
export function recordingOf(provider: BrowserProvider): RecordingCapability {
  const { recording } = provider.capabilities;
  if (!recording) {
    throw new NotImplementedError(
      `The ${provider.name} provider does not record its sessions here; recordings are for local and Selenium Grid sessions.`,
    );
  }
  return recording;
}

/**
 * The session's replay: its stored recording, else `EXPIRED` when the session ended longer ago than
 * the retention (its recording, if any, is gone), else `NONE`.
 */
export async function replayOf(
  recording: RecordingCapability,
  session: BrowserSession,
  now: Date,
): Promise<SessionReplay> {
  const stored = await recording.recording(session.providerSessionId);
  if (stored) return { ...stored, status: stored.state };
  const keptSince = now.getTime() - recording.retentionDays * 86_400_000;
  const expired = session.endedAt !== null && session.endedAt.getTime() < keptSince;
  return {
    status: expired ? 'EXPIRED' : 'NONE',
    bytes: 0,
    capped: false,
    error: null,
    completedAt: null,
    downloadsRequested: false,
    pages: [],
  };
}

/**
 * Refuses what a finished video needs and this replay is not (SPEC §18): the session still runs
 * (`session_active`), it was not recorded or its videos could not be made (`not_recorded`), it is
 * past the retention (`recording_expired`), or its videos are being made (`recording_processing`).
 */
export function requireFinished(
  session: BrowserSession,
  replay: SessionReplay,
): StoredRecording & { state: 'READY' } {
  if (session.isActive || replay.status === 'RECORDING') {
    throw new DomainError(
      'session_active',
      'The session is still running: its videos are made once it ends.',
    );
  }
  if (replay.status === 'NONE') {
    throw new DomainError(
      'not_recorded',
      'This session was not recorded (recording was switched off for it).',
    );
  }
  if (replay.status === 'FAILED') {
    throw new DomainError(
      'not_recorded',
      `This session’s videos could not be made: ${replay.error ?? 'unknown error'}.`,
    );
  }
  if (replay.status === 'EXPIRED') {
    throw new DomainError(
      'recording_expired',
      'This session’s recording is past its retention and was removed.',
    );
  }
  if (replay.status === 'PROCESSING') {
    throw new DomainError('recording_processing', 'This session’s videos are being made; ask again shortly.');
  }
  return { ...replay, state: 'READY' };
}

/** What the tag of a replay link's token signs besides its payload. */
const LINK_PURPOSE = 'replay-link';

/**
 * What a replay link's token grants: the files of one tab's video (its MP4, its HLS segments) of one
 * session until `expiresAt`, with no other credential (Browserbase's signed `downloadUrl`).
 */
export interface ReplayLinkClaims {
  readonly projectId: string;
  readonly sessionId: string;
  readonly pageId: string;
  readonly expiresAt: Date;
}

/** A short-lived token for a tab's video files that needs no key. */
export function issueReplayLinkToken(signer: CursorSigner, claims: ReplayLinkClaims): string {
  return issueSignedToken(signer, LINK_PURPOSE, {
    p: claims.projectId,
    s: claims.sessionId,
    g: claims.pageId,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
  });
}

/** The claims of a replay link's token this server signed; null for anything else. Expiry is the caller's. */
export function readReplayLinkToken(signer: CursorSigner, token: string): ReplayLinkClaims | null {
  const fields = readSignedToken(signer, LINK_PURPOSE, token);
  if (!fields) return null;
  const { p, s, g, e } = fields;
  if (typeof p !== 'string' || typeof s !== 'string' || typeof g !== 'string') return null;
  if (!Number.isSafeInteger(e)) return null;
  return { projectId: p, sessionId: s, pageId: g, expiresAt: new Date((e as number) * 1000) };
}

import { useEffect, useRef, useState } from 'preact/hooks';
import type { ReplayPage, SessionReplay } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import type { InspectorClock } from './inspectorClock.ts';
import { SessionLogs } from './SessionLogs.tsx';
import { SessionNetwork } from './SessionNetwork.tsx';

/** How often the replay is asked for while it is being recorded or made. */
const REPLAY_POLL_MS = 2000;

/** The playback speeds offered. */
const SPEEDS = [0.5, 1, 2, 4] as const;

/** What the replay's status says to a person. */
const STATUS_TEXT: Record<SessionReplay['status'], string> = {
  RECORDING: 'Recording: the videos are made once the session ends.',
  PROCESSING: 'Making the videos…',
  READY: '',
  FAILED: 'The videos could not be made.',
  NONE: 'This session was not recorded.',
  EXPIRED: 'This session’s recording is past its retention and was removed.',
};

/** Props of `SessionInspector`. */
export interface SessionInspectorProps {
  projectId: string;
  sessionId: string;
}

/**
 * A session's inspector (SPEC §18): each tab's video (a tab picker, the player's scrubber and a
 * playback speed) beside the network waterfall and the logs, on one clock: choosing a request or a
 * log line seeks the video to that moment, and playing moves a cursor through both lists.
 */
export function SessionInspector({ projectId, sessionId }: SessionInspectorProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [page, setPage] = useState<ReplayPage | undefined>(undefined);
  const [cursorMs, setCursorMs] = useState<number | null>(null);
  // A seek's own moment, kept while the player stands where it put it: the player's position, read
  // back in seconds, may land a hair before the moment chosen, which would mark the line before.
  const sought = useRef<{ wallMs: number; seconds: number } | null>(null);
  const clock: InspectorClock = {
    cursorMs,
    seek(wallMs) {
      setCursorMs(wallMs);
      const player = video.current;
      if (!player || !page) return;
      const wanted = (wallMs - page.startTimeMs) / 1000;
      const seconds = Math.min(
        Math.max(wanted, 0),
        Number.isFinite(player.duration) ? player.duration : wanted,
      );
      sought.current = { wallMs, seconds };
      player.currentTime = seconds;
    },
  };
  const onTime = (seconds: number) => {
    if (!page) return;
    const at = sought.current;
    if (at && Math.abs(seconds - at.seconds) < 0.05) {
      setCursorMs(at.wallMs);
      return;
    }
    sought.current = null;
    setCursorMs(page.startTimeMs + seconds * 1000);
  };
  return (
    <>
      <ReplayPlayer
        projectId={projectId}
        sessionId={sessionId}
        video={video}
        page={page}
        onPage={setPage}
        onTime={onTime}
      />
      <SessionNetwork projectId={projectId} sessionId={sessionId} clock={clock} />
      <SessionLogs projectId={projectId} sessionId={sessionId} clock={clock} />
    </>
  );
}

/** Props of `ReplayPlayer`. */
interface ReplayPlayerProps {
  projectId: string;
  sessionId: string;
  video: { current: HTMLVideoElement | null };
  page: ReplayPage | undefined;
  onPage(page: ReplayPage | undefined): void;
  /** The player's position, in seconds of the chosen tab's video. */
  onTime(seconds: number): void;
}

/**
 * The recording: its status while it is recorded or made (asked for again every 2 s), then the
 * chosen tab's MP4 in the browser's own player, fetched with the sign-in's token into a `blob:` URL.
 */
function ReplayPlayer({ projectId, sessionId, video, page, onPage, onTime }: ReplayPlayerProps) {
  const { api } = useConsole();
  const [final, setFinal] = useState(false);
  const replay = useResource(
    () => api.sessions.replay(projectId, sessionId),
    sessionId,
    final ? undefined : REPLAY_POLL_MS,
  );
  const status = replay.data?.status;
  const pages = replay.data?.pages ?? [];
  const [source, setSource] = useState<{ pageId: string; url: string } | undefined>(undefined);
  const [videoError, setVideoError] = useState<unknown>(undefined);
  const [speed, setSpeed] = useState(1);

  useEffect(() => {
    if (status && status !== 'RECORDING' && status !== 'PROCESSING') setFinal(true);
    if (status === 'READY' && !page && pages[0]) onPage(pages[0]);
  }, [status, pages, page, onPage]);

  useEffect(() => {
    if (status !== 'READY' || !page) return;
    let url: string | undefined;
    let gone = false;
    setVideoError(undefined);
    api.sessions.video(projectId, sessionId, page.pageId).then(
      (blob) => {
        if (gone) return;
        url = URL.createObjectURL(blob as Blob);
        setSource({ pageId: page.pageId, url });
      },
      (failure: unknown) => !gone && setVideoError(failure),
    );
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, projectId, sessionId, status, page]);

  useEffect(() => {
    if (video.current) video.current.playbackRate = speed;
  }, [video, speed, source]);

  return (
    <section aria-labelledby="session-replay" class="panel">
      <div class="section-head">
        <h2 id="session-replay">Recording</h2>
      </div>
      <ProblemAlert error={replay.error} />
      {status && STATUS_TEXT[status] ? (
        <p class="empty" role="status">
          {STATUS_TEXT[status]}
          {status === 'FAILED' && replay.data?.error ? ` ${replay.data.error}` : ''}
        </p>
      ) : null}
      {replay.data?.capped ? (
        <p role="note">The recording reached its bound: what came later is not in the videos.</p>
      ) : null}
      {status === 'READY' && pages.length > 0 ? (
        <div class="replay">
          <div class="replay-controls">
            <label>
              Tab{' '}
              <select
                value={page?.pageId}
                onChange={(event) => onPage(pages.find((p) => p.pageId === event.currentTarget.value))}
              >
                {pages.map((p) => (
                  <option key={p.pageId} value={p.pageId}>
                    {`Tab ${p.pageId}: ${p.title || p.url}`}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Speed{' '}
              <select value={String(speed)} onChange={(event) => setSpeed(Number(event.currentTarget.value))}>
                {SPEEDS.map((s) => (
                  <option key={s} value={String(s)}>{`${s}×`}</option>
                ))}
              </select>
            </label>
          </div>
          <ProblemAlert error={videoError} />
          {source && source.pageId === page?.pageId ? (
            // biome-ignore lint/a11y/useMediaCaption: a screen recording has no speech to caption.
            <video
              ref={video}
              src={source.url}
              controls
              preload="auto"
              aria-label={`Video of tab ${page.pageId}`}
              onTimeUpdate={(event) => onTime(event.currentTarget.currentTime)}
              onSeeked={(event) => onTime(event.currentTarget.currentTime)}
            />
          ) : (
            <p aria-busy="true">Loading the video…</p>
          )}
        </div>
      ) : null}
    </section>
  );
}

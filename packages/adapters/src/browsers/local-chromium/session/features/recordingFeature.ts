import type { Recordings } from '../../../cdp/recording/Recordings.ts';
import type { SessionFeature } from '../SessionFeature.ts';

/** The log `method` of a recording that reached its per-session bound. */
export const RECORDING_CAPPED_METHOD = 'Browserdeck.recordingCapped';

/**
 * Recording (SPEC §18): unless the create switched it off (`record: false`, or `RECORD_SESSIONS`
 * off), from the moment a session opens its log recorder screencasts every tab into a recording in
 * the shared blob store, frames written as they arrive. Past the bound recording stops and the
 * session's logs say so. The session's end waits for the last frames to be written; the videos are
 * then made in the background (`Recordings.endAndMake`).
 */
export function recordingFeature(recordings: Recordings): SessionFeature {
  return {
    name: 'recording',
    async prepare(request) {
      if (!recordings.records(request.record)) return {};
      let end: (() => Promise<void>) | undefined;
      return {
        open(session) {
          const { recorder } = session.browser;
          const recording = recordings.start(session.id, {
            ownerId: request.ownerId,
            onCapped: () =>
              recorder.recordServiceEvent(RECORDING_CAPPED_METHOD, {
                reason:
                  'The session’s recording reached its bound (RECORDING_MAX_MB); later frames are not in its videos.',
              }),
          });
          recorder.captureVideo(recording, recordings.maxFps);
          end = () => {
            recorder.captureVideo(null);
            return recordings.endAndMake(recording);
          };
        },
        ended: () => end?.(),
      };
    },
  };
}

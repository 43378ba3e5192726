import type { NetworkCaptures } from '../../../cdp/network/NetworkCaptures.ts';
import type { SessionFeature } from '../SessionFeature.ts';

/** The log `method` of a network capture that reached its per-session bound. */
export const NETWORK_CAPTURE_CAPPED_METHOD = 'Browserdeck.networkCaptureCapped';

/**
 * Network capture (SPEC §18): from the moment a session opens, its log recorder hands every tab's
 * network and page events to a capture in the shared blob store, written as they arrive; once the
 * session has ended the capture is completed. Past the bound the capture stops and the session's
 * logs say so. The session's end waits for the capture's last write.
 */
export function networkCaptureFeature(captures: NetworkCaptures): SessionFeature {
  return {
    name: 'networkCapture',
    async prepare() {
      let end: (() => Promise<void>) | undefined;
      return {
        open(session) {
          const { recorder } = session.browser;
          const capture = captures.start(session.id, () =>
            recorder.recordServiceEvent(NETWORK_CAPTURE_CAPPED_METHOD, {
              reason: 'The session’s network capture reached its bound; later requests are not in its HAR.',
            }),
          );
          recorder.captureNetwork(capture);
          end = () => {
            recorder.captureNetwork(null);
            return capture.end();
          };
        },
        ended: () => end?.(),
      };
    },
  };
}

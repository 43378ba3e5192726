import type { RetainedDownloads } from '../../files/RetainedDownloads.ts';
import type { SessionFeature } from '../SessionFeature.ts';

/**
 * Files: a session's downloads are kept past its end, for its account (`RetainedDownloads`): its
 * Downloads folder is handed over as it ends, once its browser has stopped. Uploads need nothing
 * per session beyond its folder (`LocalSessionFiles`).
 */
export function filesFeature(retained: Pick<RetainedDownloads, 'hold'>): SessionFeature {
  return {
    name: 'files',
    async prepare(request) {
      return { holdDownloads: (id) => retained.hold(id, request.ownerId) };
    },
  };
}

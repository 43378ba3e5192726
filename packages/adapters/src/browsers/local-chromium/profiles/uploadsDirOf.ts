import { join } from 'node:path';

/**
 * Where a session's uploads go: inside its profile (the only folder its browser sees), beside
 * Downloads and apart from it, so an upload is never handed back as one of the session's downloads.
 */
export function uploadsDirOf(profileDir: string): string {
  return join(profileDir, 'Uploads');
}

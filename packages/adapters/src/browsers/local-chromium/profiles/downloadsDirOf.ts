import { join } from 'node:path';

/** Where a browser's downloads go: inside its profile, so they go with a temporary profile. */
export function downloadsDirOf(profileDir: string): string {
  return join(profileDir, 'Downloads');
}

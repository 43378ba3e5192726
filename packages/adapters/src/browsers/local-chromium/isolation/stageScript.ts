/** Where the browser's profile is staged in its mount namespace (reachable by its user). */
export const STAGED_PROFILE = '/run/browserdeck/profile';
/** Where the browser's folder is staged in its mount namespace (reachable by its user). */
export const STAGED_BROWSER = '/run/browserdeck/browser';

/**
 * Run as root in a fresh mount namespace: mounts a new /run (which also hides the host's sockets)
 * and binds the browser's profile and folder under it, so the browser's user can reach them even
 * when they lie inside private folders such as DATA_DIR. Arguments: profile, browser folder, then
 * the rest of the script's arguments.
 */
export const STAGE_SCRIPT: readonly string[] = [
  'set -e',
  'profile=$1; browser=$2; shift 2',
  'mount -t tmpfs -o mode=0755,nosuid,nodev browserdeck-run /run',
  `mkdir -p ${STAGED_PROFILE} ${STAGED_BROWSER}`,
  `mount --bind "$profile" ${STAGED_PROFILE}`,
  `mount --bind "$browser" ${STAGED_BROWSER}`,
];

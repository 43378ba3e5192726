/** Where the writable folder (a browser's profile, a run's folder) is staged in its mount namespace. */
export const STAGED_PROFILE = '/run/browserdeck/profile';
/** The read-only folders (the executable's own first) are staged at this prefix and their index. */
export const STAGED_READ_ONLY_PREFIX = '/run/browserdeck/ro-';

/** Where the `index`th read-only folder is staged. */
export function stagedReadOnlyDir(index: number): string {
  return `${STAGED_READ_ONLY_PREFIX}${index}`;
}

/**
 * Run as root in a fresh mount namespace: mounts a new /run (which also hides the host's sockets)
 * and binds the writable folder and each read-only folder under it, so the confined user can reach
 * them even when they lie inside private folders such as DATA_DIR. Arguments: the writable folder,
 * the read-only folders, `--`, then the rest of the script's arguments.
 */
export const STAGE_SCRIPT: readonly string[] = [
  'set -e',
  'profile=$1; shift',
  'mount -t tmpfs -o mode=0755,nosuid,nodev browserdeck-run /run',
  `mkdir -p ${STAGED_PROFILE}`,
  `mount --bind "$profile" ${STAGED_PROFILE}`,
  'i=0',
  'while [ "$1" != "--" ]; do',
  `  mkdir -p ${STAGED_READ_ONLY_PREFIX}$i`,
  `  mount --bind "$1" ${STAGED_READ_ONLY_PREFIX}$i`,
  '  i=$((i+1)); shift',
  'done',
  'shift',
];

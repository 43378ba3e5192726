/**
 * How local browsers are confined (http-api.md §7, docs/security.md):
 * - `bubblewrap`: an unprivileged user, Chromium's sandbox, and a bubblewrap filesystem view of
 *   system files (read-only), the browser's folder (read-only) and its own profile: nothing else.
 * - `namespaces`: an unprivileged user, Chromium's sandbox, and a mount namespace (util-linux
 *   `unshare`) in which `DATA_DIR`, home folders, the service's folder and the temporary folder
 *   (other profiles) are hidden under empty file systems; the browser's own folders are mounted back.
 * - `off`: the browser runs as the service's user, unconfined (single-user development only).
 */
export type IsolationLevel = 'bubblewrap' | 'namespaces' | 'off';

/** `LOCAL_ISOLATION`: `on` picks the strongest level this host supports. */
export type IsolationSetting = 'on' | 'off' | 'bubblewrap' | 'namespaces';

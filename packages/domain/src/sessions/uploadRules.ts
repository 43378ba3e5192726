import { Checks } from '../shared/checks.ts';

/** Largest file one session upload takes by default (`UPLOAD_MAX_MB`, http-api.md §5): 50 MiB. */
export const UPLOAD_MAX_BYTES_DEFAULT = 50 * 1024 * 1024;
/**
 * Files one session takes (http-api.md §5, §13): one more is 409 `upload_limit_reached`. With
 * `UPLOAD_MAX_MB` it bounds what one session's uploads may put on its browser's disk (local) or send
 * on to the provider.
 */
export const UPLOADS_PER_SESSION_MAX = 100;
/** Longest upload file name, in characters, once reduced to its base name (a common file-system limit). */
export const UPLOAD_NAME_MAX_LENGTH = 255;

/**
 * The name an upload is stored under: the base name of what the client sent (whatever came before
 * the last `/` or `\` is dropped: a client's own folders mean nothing on the browser's host), trimmed.
 * A name left empty, `.` or `..`, longer than `UPLOAD_NAME_MAX_LENGTH`, or holding a control
 * character is a 400 on `file`.
 */
export function uploadFileName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).trim();
  new Checks()
    .require(base !== '' && base !== '.' && base !== '..', 'file', 'needs a file name')
    .require(
      base.length <= UPLOAD_NAME_MAX_LENGTH,
      'file',
      `its name must be at most ${UPLOAD_NAME_MAX_LENGTH} characters`,
    )
    .text(base, 'file', 'name')
    .throwIfAny();
  return base;
}

import { Readable } from 'node:stream';
import { UPLOAD_MAX_BYTES_DEFAULT, UPLOADS_PER_SESSION_MAX } from '@browserdeck/domain';
import { fileBody } from '../../kernel/routing/fileBody.ts';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { PROVIDER_CALL_ERRORS, PROVIDER_PROJECT_PATH, providerPathValues } from '../shared/providerScope.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { UploadedFileSchema } from './sessionFileSchemas.ts';
import { SESSIONS_TAG } from './sessionRoutes.ts';
import { sessionParams } from './sessionSchemas.ts';

/** The use cases behind a session's files: its downloads (a zip) and uploads. */
export type SessionFileRouteDeps = UseCasesOf<'sessions', 'downloads' | 'upload'> & {
  /**
   * `maxBytes`: the upload limit, which the body's reader enforces while it reads (absent, as in a
   * replacement that has only `execute`: `UPLOAD_MAX_BYTES_DEFAULT`).
   */
  upload: { readonly maxBytes?: number | undefined };
};

/** The upload limit the body's reader enforces for `deps`. */
export function uploadMaxBytesOf(deps: SessionFileRouteDeps): number {
  return deps.upload.maxBytes ?? UPLOAD_MAX_BYTES_DEFAULT;
}

/** How much longer than the request cut-off an upload may take to arrive (50 MiB over a slow link). */
export const UPLOAD_EXTRA_TIME_MS = 5 * 60_000;

/** What reading a session's downloads may answer, in both dialects. */
export const DOWNLOADS_ERRORS = [
  'not_found',
  'session_on_other_instance',
  'not_implemented',
  ...PROVIDER_CALL_ERRORS,
] as const;

/** What uploading a file to a session may answer, in both dialects. */
export const UPLOAD_ERRORS = [
  'not_found',
  'project_archived',
  'session_ended',
  'upload_limit_reached',
  'session_on_other_instance',
  'not_implemented',
  ...PROVIDER_CALL_ERRORS,
] as const;

/**
 * A session's downloads as the answer both dialects give: the zip, streamed, as an attachment named
 * `<session id>-downloads.zip`.
 */
export function downloadsAnswer(sessionId: string, archive: AsyncIterable<Uint8Array>) {
  return {
    status: 200 as const,
    body: Readable.from(archive, { objectMode: false }),
    contentType: 'application/zip',
    headers: { 'Content-Disposition': `attachment; filename="${sessionId}-downloads.zip"` },
  };
}

/**
 * `…/sessions/{session_id}/downloads` and `…/uploads` (http-api.md §5): the files a session's browser
 * downloaded, as one streamed zip, and a file put where the session's page can take it.
 */
export function sessionFileRoutes(deps: SessionFileRouteDeps, providerName: string): AnyRoute[] {
  const base = `${PROVIDER_PROJECT_PATH}/sessions/{session_id}`;
  const scope = {
    tag: SESSIONS_TAG.name,
    auth: 'userOrKey' as const,
    pathValues: providerPathValues(providerName),
  };
  return [
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${base}/downloads`,
      operationId: 'getSessionDownloads',
      role: 'viewer',
      summary: 'The files the session’s browser downloaded, as a zip',
      description:
        'Every completed download of the session (files still downloading are left out), flat in one ' +
        'zip, streamed. Available while the session runs and for the provider’s retention period after ' +
        'it ends (local: `DOWNLOADS_RETENTION_SEC`); later it is a 404. A session without downloads ' +
        'answers an empty zip. Playwright’s `download.saveAs()` cannot fetch a remote browser’s file: ' +
        'read it from here.',
      params: sessionParams,
      responses: {
        200: {
          description: 'A zip of the downloaded files.',
          contentType: 'application/zip',
          headers: {
            'Content-Disposition': { description: '`attachment; filename="<session id>-downloads.zip"`' },
          },
        },
      },
      errors: DOWNLOADS_ERRORS,
      handle: async ({ caller, params }) => {
        const { session, archive } = await deps.downloads.execute({
          caller,
          projectId: params.project_id,
          sessionId: params.session_id,
        });
        return downloadsAnswer(session.id, archive);
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: `${base}/uploads`,
      operationId: 'uploadSessionFile',
      role: 'developer',
      summary: 'Put a file where the session’s page can take it',
      description:
        'A `multipart/form-data` body with one file in the field `file`. It is stored for the running ' +
        'session under its base name (a second file of the same name gets ` (2)`); the answer’s `path` ' +
        'is what `setInputFiles(path)` (CDP `DOM.setFileInputFiles`) takes. Past the upload limit ' +
        '(`UPLOAD_MAX_MB`) or the session’s disk it is a 413 and nothing is kept. A session takes at ' +
        `most ${UPLOADS_PER_SESSION_MAX} files (one more is 409 \`upload_limit_reached\`).`,
      params: sessionParams,
      body: fileBody({ field: 'file', maxBytes: uploadMaxBytesOf(deps), description: 'The file.' }),
      extraTimeMs: UPLOAD_EXTRA_TIME_MS,
      responses: { 201: { description: 'Where the file was put.', schema: UploadedFileSchema } },
      errors: UPLOAD_ERRORS,
      handle: async ({ caller, params, body }) => {
        const uploaded = await deps.upload.execute({
          caller,
          projectId: params.project_id,
          sessionId: params.session_id,
          file: { name: body.name, content: body.content },
        });
        return { status: 201, body: { name: uploaded.name, size: uploaded.size, path: uploaded.path } };
      },
    }),
  ];
}

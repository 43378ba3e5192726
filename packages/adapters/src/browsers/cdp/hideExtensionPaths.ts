import type { CdpBrowserMessage } from './cdpMessages.ts';

/**
 * The answer to `Extensions.getExtensions` as a client may see it: each extension's `path` (where
 * the browser's host keeps it unpacked, inside the session's profile) becomes `/extensions/<id>`.
 * Clients such as Stagehand need the field to be a string, and none can use the real folder
 * (`Extensions.loadUnpacked` is refused): minimal disclosure, not a boundary, since an upload's
 * `path` is a host path of the same profile (docs/adr/0025, "Host paths"). Any other answer, an
 * error included, passes as it is.
 */
export function hideExtensionPaths(message: CdpBrowserMessage): CdpBrowserMessage {
  const extensions = message.result?.extensions;
  if (!Array.isArray(extensions)) return message;
  return {
    ...message,
    result: {
      ...message.result,
      extensions: extensions.map((extension: unknown) => {
        if (typeof extension !== 'object' || extension === null) return extension;
        const { id } = extension as { id?: unknown };
        return { ...extension, path: `/extensions/${typeof id === 'string' ? id : ''}` };
      }),
    },
  };
}

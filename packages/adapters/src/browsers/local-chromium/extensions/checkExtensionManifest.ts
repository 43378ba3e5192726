import { UnsupportedOptionError } from '@browserdeck/domain';

/**
 * Permissions a local browser's extension may not ask for (also as optional ones), with why: each
 * would reach past the session's confinement.
 */
export const REFUSED_EXTENSION_PERMISSIONS: ReadonlyMap<string, string> = new Map([
  // chrome.proxy settings win over --proxy-server: the browser's traffic would go around the egress proxy.
  ['proxy', "it could send the browser's traffic around the egress proxy"],
  ['nativeMessaging', 'it would start programs on the host'],
]);

/**
 * Refuses (`unsupported_option` on `extensionId`) an extension whose manifest asks for a permission
 * of `REFUSED_EXTENSION_PERMISSIONS`. Anything else about the manifest was checked at upload, and
 * Chromium has the last word when it loads it.
 */
export function checkExtensionManifest(manifest: Record<string, unknown>): void {
  const asked = [manifest.permissions, manifest.optional_permissions].flatMap((list) =>
    Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [],
  );
  for (const permission of asked) {
    const why = REFUSED_EXTENSION_PERMISSIONS.get(permission);
    if (why)
      throw new UnsupportedOptionError(
        'extensionId',
        `The extension asks for the "${permission}" permission, which local browsers do not grant: ${why}.`,
      );
  }
}

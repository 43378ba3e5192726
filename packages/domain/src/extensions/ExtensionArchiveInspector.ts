import type { ExtensionManifestVersion } from './extensionRules.ts';

/** What an extension zip holds, once it has been checked. */
export interface ExtensionArchiveSummary {
  /** The manifest's `name` (possibly a `__MSG_…__` key), trimmed. */
  readonly name: string;
  /** The manifest's `version`. */
  readonly version: string;
  readonly manifestVersion: ExtensionManifestVersion;
  /** Files in the zip (folders not counted). */
  readonly files: number;
}

/**
 * Checks an uploaded extension zip (a port: the domain reads no zips). It fails with
 * `ExtensionInvalidError` unless the zip has a `manifest.json` at its root that is a JSON object
 * with a string `name` and `manifest_version` 2 or 3, no entry leaves the extension's folder or is a
 * symlink, and the entry count and inflated size stay within `extensionRules.ts`.
 */
export interface ExtensionArchiveInspector {
  inspect(archive: Uint8Array): Promise<ExtensionArchiveSummary>;
}

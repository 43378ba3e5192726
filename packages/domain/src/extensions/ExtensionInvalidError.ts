import { DomainError } from '../shared/DomainError.ts';

/**
 * An uploaded extension was refused (`extension_invalid`, 400): not a zip, no `manifest.json` at its
 * root, a manifest Chromium would not load, a path that leaves the extension's folder, a symlink, or
 * past a limit of `extensionRules.ts`. The message says which, for the person who built the zip.
 */
export class ExtensionInvalidError extends DomainError {
  constructor(message: string) {
    super('extension_invalid', message);
  }
}

import { editPreferences, preferenceObject } from '../profiles/editPreferences.ts';

/**
 * Writes into the profile's preferences, before the browser starts, that the extensions `ids` may
 * not read `file:` URLs. Chromium gives an unpacked extension that access by default (a developer
 * feature) and keeps a setting found in the preferences (`UnpackedInstaller::GetFlags`); with it, an
 * extension with `<all_urls>` (Stagehand's), or a client driving it, could read the files the
 * browser sees, which the command policy refuses to pages. Existing preferences (a context's
 * profile) are kept; the files are given to `owner`, the browser's user, and nothing a context's
 * profile left is followed (`editPreferences`).
 */
export async function denyFileAccess(
  profileDir: string,
  ids: readonly string[],
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  await editPreferences(profileDir, owner, (preferences) => {
    const settings = preferenceObject(preferenceObject(preferences, 'extensions'), 'settings');
    for (const id of ids) preferenceObject(settings, id).newAllowFileAccess = false;
  });
}

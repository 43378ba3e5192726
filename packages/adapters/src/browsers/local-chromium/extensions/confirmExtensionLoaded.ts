import { ExtensionInvalidError, ProviderError } from '@browserdeck/domain';
import type { CdpClient } from '../../cdp/CdpClient.ts';
import type { StagedExtension } from './stageExtension.ts';

/** An entry of `Extensions.getExtensions`. */
interface LoadedExtension {
  readonly id: string;
  readonly path: string;
  readonly enabled: boolean;
}

/**
 * Checks, over the provider's own DevTools connection, that the browser loaded the session's
 * extension under one of the ids its `file:` access was switched off for (`denyFileAccess`), and
 * returns that id. Chromium lists a `--load-extension` extension by the time DevTools answers; one
 * it refused (a manifest this build does not take) is missing: `extension_invalid` (with the last
 * line Chromium wrote about it, if it wrote one). A build without `Extensions` (a headless shell) or an id we did not
 * foresee fails closed: `provider_unavailable` / `provider_error`, and the caller stops the browser.
 */
export async function confirmExtensionLoaded(
  cdp: CdpClient,
  staged: StagedExtension,
  recentStderr: () => string,
): Promise<string> {
  let listed: LoadedExtension[];
  try {
    const answer = await cdp.send('Extensions.getExtensions');
    listed = (answer.extensions as LoadedExtension[] | undefined) ?? [];
  } catch (error) {
    throw new ProviderError(
      'provider_unavailable',
      `This Chromium cannot load extensions (${(error as Error).message}); set CHROMIUM_EXTENSIONS_PATH to a full Chromium.`,
      { cause: error },
    );
  }
  const loaded = listed.find((e) => e.path === staged.dir || staged.ids.includes(e.id));
  if (!loaded) {
    const said = recentStderr()
      .split('\n')
      .filter((line) => /extension|manifest/i.test(line))
      .at(-1)
      ?.replace(/^\[[^\]]*\]\s*/, '')
      .slice(0, 500);
    throw new ExtensionInvalidError(
      `Chromium did not load the extension: this build refused its manifest (a minimum_chrome_version above it, or a key it does not take)${said ? `; it said: ${said}` : '.'}`,
    );
  }
  if (!staged.ids.includes(loaded.id))
    throw new ProviderError(
      'provider_error',
      `Chromium loaded the extension as ${loaded.id}, not under an id its file access was switched off for.`,
    );
  return loaded.id;
}

import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { SessionExtension } from '../sessions/sessionOptions.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { ExtensionRepository } from './ExtensionRepository.ts';

/**
 * The extension a session create names (`extensionId`), with its zip, for the provider to load:
 * 404 `extension_not_found` unless it is one of the project's. A provider with its own extension
 * store that has no copy yet (the extension was uploaded while another provider was configured)
 * gets one now, and its id is kept for the next session. With such a provider, an id that is not one
 * of ours is taken as the provider's own (an extension uploaded to Browserbase directly, as before
 * Browserdeck stored extensions): null, and the id is passed through for the provider to judge.
 */
export async function loadSessionExtension(
  deps: { extensions?: ExtensionRepository | undefined; provider: BrowserProvider },
  projectId: string,
  extensionId: string,
): Promise<SessionExtension | null> {
  const { extensions } = deps;
  const store = deps.provider.capabilities.extensions;
  const extension = extensions ? await extensions.findInProject(projectId, extensionId) : null;
  const archive = extension && extensions ? await extensions.readArchive(projectId, extension.id) : null;
  if (!extension || !extensions || !archive) {
    if (store) return null;
    throw new NotFoundError('Extension', 'extension_not_found');
  }
  if (extension.providerExtensionId === null && store) {
    extension.storedAtProvider(await store.upload(archive, extension.fileName));
    await extensions.saveProviderExtensionId(extension);
  }
  return {
    id: extension.id,
    name: extension.name,
    archive,
    providerExtensionId: extension.providerExtensionId,
  };
}

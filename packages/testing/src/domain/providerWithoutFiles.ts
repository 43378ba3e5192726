import type { BrowserProvider } from '@browserdeck/domain';

/**
 * `provider` as one without session downloads and uploads (as Selenium Grid today): the same
 * sessions and capabilities, but no `files`.
 */
export function providerWithoutFiles(provider: BrowserProvider): BrowserProvider {
  const { files: _files, ...capabilities } = provider.capabilities;
  return {
    name: provider.name,
    regions: provider.regions,
    defaultProviderProjectId: provider.defaultProviderProjectId,
    sessions: provider.sessions,
    capabilities,
  };
}

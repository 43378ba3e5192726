import type { BrowserProvider } from '@browserdeck/domain';

/**
 * `provider` as one without session downloads and uploads (as Selenium Grid today): every other call
 * goes to it, `downloads` and `upload` are absent.
 */
export function providerWithoutFiles(provider: BrowserProvider): BrowserProvider {
  return {
    name: provider.name,
    regions: provider.regions,
    defaultProviderProjectId: provider.defaultProviderProjectId,
    ...(provider.instanceId === undefined ? {} : { instanceId: provider.instanceId }),
    create: (request) => provider.create(request),
    get: (id) => provider.get(id),
    release: (id, projectId) => provider.release(id, projectId),
    logs: (id) => provider.logs(id),
  };
}

import type { CreateBrowserRequest } from '@browserdeck/domain';
import { DEFAULT_TIMEOUT_SEC } from '@browserdeck/domain';

/**
 * A provider create request for tests: every field with a plain default (no context, extension or
 * viewport; `keepAlive` true; each project its own owner unless `ownerId` says otherwise),
 * `overrides` over them. One place to add a field the port gains.
 */
export function browserRequest(overrides: Partial<CreateBrowserRequest> = {}): CreateBrowserRequest {
  const projectId = overrides.projectId ?? 'project-1';
  return {
    sessionId: 'session-1',
    projectId,
    ownerId: `owner-of-${projectId}`,
    providerProjectId: 'provider-project',
    region: 'us-west-2',
    timeoutSec: DEFAULT_TIMEOUT_SEC,
    contextId: null,
    contextPersist: true,
    extensionId: null,
    extension: null,
    proxies: null,
    keepAlive: true,
    viewport: null,
    record: null,
    ...overrides,
  };
}

import { ApiKey } from '@browserdeck/domain';
import { BUILT_AT, BUILT_OWNER_ID, BUILT_PROJECT_ID, builtId, nextBuiltNumber } from './builderDefaults.ts';

/** What `anApiKey` may be told; `now` is its creation time. */
export type ApiKeyOverrides = Partial<Parameters<typeof ApiKey.create>[0]>;

/**
 * A valid, usable API key built through `ApiKey.create`: a fresh id, name `Key <n>`, a unique
 * `bdk_<n>` prefix and a placeholder digest, role `developer`, never expiring, in `BUILT_PROJECT_ID` of
 * `BUILT_OWNER_ID`, created at `BUILT_AT`.
 */
export function anApiKey(overrides: ApiKeyOverrides = {}): ApiKey {
  const n = nextBuiltNumber();
  return ApiKey.create({
    id: builtId(n),
    projectId: BUILT_PROJECT_ID,
    ownerId: BUILT_OWNER_ID,
    name: `Key ${n}`,
    role: 'developer',
    prefix: `bdk_${String(n).padStart(8, '0')}`,
    digest: `digest-${n}`,
    expiresAt: null,
    now: BUILT_AT,
    ...overrides,
  });
}

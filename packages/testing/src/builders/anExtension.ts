import { Extension } from '@browserdeck/domain';
import { BUILT_AT, BUILT_PROJECT_ID, builtId, nextBuiltNumber } from './builderDefaults.ts';

/** What `anExtension` may be told; `now` is its creation time. */
export type ExtensionOverrides = Partial<Parameters<typeof Extension.create>[0]>;

/**
 * A stored extension's record built through `Extension.create`: a fresh id, name `Extension <n>`,
 * file `extension-<n>.zip` of 1234 bytes, no provider copy, in `BUILT_PROJECT_ID`, created at
 * `BUILT_AT`. Its zip is the caller's to store beside it.
 */
export function anExtension(overrides: ExtensionOverrides = {}): Extension {
  const n = nextBuiltNumber();
  return Extension.create({
    id: builtId(n),
    projectId: BUILT_PROJECT_ID,
    name: `Extension ${n}`,
    fileName: `extension-${n}.zip`,
    size: 1234,
    providerExtensionId: null,
    now: BUILT_AT,
    ...overrides,
  });
}

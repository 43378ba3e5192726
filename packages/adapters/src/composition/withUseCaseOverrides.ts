import type { BrowserdeckUseCases } from '@browserdeck/domain';
import type { UseCaseOverrides } from './BrowserdeckOverrides.ts';

/**
 * The use cases with the given replacements, feature by feature; the originals are left as they
 * are. A feature or use case that does not exist is refused, so a misspelt replacement cannot
 * silently leave the real one in place.
 */
export function withUseCaseOverrides(
  useCases: BrowserdeckUseCases,
  overrides: UseCaseOverrides | undefined,
): BrowserdeckUseCases {
  if (!overrides) return useCases;
  const merged: Record<string, object> = { ...useCases };
  for (const [feature, replacements] of Object.entries(overrides)) {
    const original = merged[feature];
    if (!original) throw new TypeError(`overrides.useCases.${feature}: there is no such feature`);
    const copy: Record<string, unknown> = { ...original };
    for (const [name, useCase] of Object.entries(replacements ?? {})) {
      if (!(name in original)) {
        throw new TypeError(`overrides.useCases.${feature}.${name}: there is no such use case`);
      }
      if (useCase !== undefined) copy[name] = useCase;
    }
    merged[feature] = copy;
  }
  // Replacements are typed by `execute`, the only part of a use case anything calls.
  return merged as unknown as BrowserdeckUseCases;
}

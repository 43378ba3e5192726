import type { BrowserdeckUseCases } from '@browserdeck/domain';

/**
 * The use cases `names` of `feature`, picked from the one list (`BrowserdeckUseCases`, derived from
 * `createUseCases`) as routes call them: by `execute` only, so a replacement (`overrides.useCases`)
 * or a test's stand-in with a matching `execute` will do. A route's deps say which it calls.
 */
export type UseCasesOf<
  F extends keyof BrowserdeckUseCases,
  N extends keyof BrowserdeckUseCases[F] = keyof BrowserdeckUseCases[F],
> = {
  [U in N]: Pick<BrowserdeckUseCases[F][U], 'execute' & keyof BrowserdeckUseCases[F][U]>;
};

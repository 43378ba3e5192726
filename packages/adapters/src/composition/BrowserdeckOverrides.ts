import type { BrowserdeckUseCases, ScriptRunner, Timers } from '@browserdeck/domain';
import type { LiveViewHub } from '../browsers/live-view/LiveViewHub.ts';
import type { LiveViewRecheckOptions } from '../http/koa/api/live-view/LiveViewGrantWatch.ts';
import type { HttpDatabaseHooks, HttpSettings } from '../http/koa/HttpAppDeps.ts';

/**
 * Replacement use cases by feature, any subset: `{ sessions: { create: failing } }`. Typed
 * structurally, so anything with a matching `execute` will do.
 */
export type UseCaseOverrides = {
  [F in keyof BrowserdeckUseCases]?: {
    [U in keyof BrowserdeckUseCases[F]]?: Pick<
      BrowserdeckUseCases[F][U],
      'execute' & keyof BrowserdeckUseCases[F][U]
    >;
  };
};

/**
 * What a host or a test replaces in what `createBrowserdeck` builds. The composition applies them
 * once, where it builds the use cases and the HTTP app, so the in-process `useCases`, the HTTP
 * routes and the background work all see the same replacements.
 */
export interface BrowserdeckOverrides {
  /** Use cases to use instead of the domain's, e.g. one that throws to test a fault. */
  useCases?: UseCaseOverrides | undefined;
  /** Database hooks of the HTTP app (readiness, error translation, request scope), over the storage's. */
  database?: Partial<HttpDatabaseHooks> | undefined;
  /** HTTP settings over the `http` option, one by one. */
  http?: HttpSettings | undefined;
  /**
   * The live-view hub instead of the one built over the provider's CDP; `null` for none. The caller
   * closes a hub it gives.
   */
  liveView?: LiveViewHub | null | undefined;
  /** How often, and with what timer, open live-view viewers' grants are re-checked (default every 5 s). */
  liveViewRecheck?: LiveViewRecheckOptions | undefined;
  /** What executes run scripts instead of the confined runner (e.g. a fake in tests). */
  scriptRunner?: ScriptRunner | undefined;
  /** Timers of run heartbeats and of the sweep for lost runs, instead of the runtime's (tests tick them). */
  timers?: Timers | undefined;
}

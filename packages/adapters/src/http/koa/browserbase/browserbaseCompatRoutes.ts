import type { ExtensionRouteDeps } from '../api/extensions/extensionRoutes.ts';
import type { LiveUrlDeps } from '../api/live-view/presentLiveUrls.ts';
import type { ReplayRouteDeps } from '../api/sessions/replayRoutes.ts';
import type { SessionFileRouteDeps } from '../api/sessions/sessionFileRoutes.ts';
import type { SessionRouteDeps } from '../api/sessions/sessionRoutes.ts';
import type { AnyRoute } from '../kernel/routing/RouteDefinition.ts';
import { type BrowserbaseContextRouteDeps, browserbaseContextRoutes } from './browserbaseContextRoutes.ts';
import { browserbaseExtensionRoutes } from './browserbaseExtensionRoutes.ts';
import { type BrowserbaseFunctionRouteDeps, browserbaseFunctionRoutes } from './browserbaseFunctionRoutes.ts';
import {
  type BrowserbaseProjectRouteDeps,
  type BrowserbaseProjectSettings,
  browserbaseProjectRoutes,
} from './browserbaseProjectRoutes.ts';
import { browserbaseReplayRoutes } from './browserbaseReplayRoutes.ts';
import { browserbaseSessionFileRoutes } from './browserbaseSessionFileRoutes.ts';
import { browserbaseSessionRoutes } from './browserbaseSessionRoutes.ts';

/** The use cases the Browserbase-compatible API maps onto, grouped as the composition groups them. */
export interface BrowserbaseCompatDeps {
  sessions: SessionRouteDeps & SessionFileRouteDeps & ReplayRouteDeps;
  projects: Omit<BrowserbaseProjectRouteDeps, 'stats'>;
  contexts: BrowserbaseContextRouteDeps;
  /** The project's uploaded extensions (`/v1/extensions`), which sessions load by `extensionId`. */
  extensions: ExtensionRouteDeps;
  /** Functions are agents and their invocations agent runs (http-api.md §11). */
  runs: BrowserbaseFunctionRouteDeps;
  /** Where the live-view links of `/v1/sessions/{id}/debug` point. */
  live?: LiveUrlDeps | undefined;
}

/**
 * The Browserbase-compatible API (http-api.md §13): Browserbase's paths, bodies and error shapes over
 * the same use cases and rows as Browserdeck's own API, for a project API key in `X-BB-API-Key`.
 * Nothing is stored twice and no rule is copied: each route maps shapes and calls a use case.
 */
export function browserbaseCompatRoutes(
  deps: BrowserbaseCompatDeps,
  settings: BrowserbaseProjectSettings = { concurrency: null },
): AnyRoute[] {
  return [
    ...browserbaseSessionRoutes({ ...deps.sessions, contexts: deps.contexts, live: deps.live ?? {} }),
    ...browserbaseSessionFileRoutes(deps.sessions),
    ...browserbaseReplayRoutes(deps.sessions),
    ...browserbaseProjectRoutes({ ...deps.projects, stats: deps.sessions.stats }, settings),
    ...browserbaseContextRoutes(deps.contexts),
    ...browserbaseExtensionRoutes(deps.extensions),
    ...browserbaseFunctionRoutes(deps.runs),
  ];
}

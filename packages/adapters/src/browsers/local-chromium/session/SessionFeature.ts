import type { CreateBrowserRequest, SessionExtension } from '@browserdeck/domain';
import type { UpstreamRoute } from '../../egress/UpstreamRoute.ts';
import type { HoldDownloads, LocalBrowserSession } from './LocalBrowserSession.ts';

/** What one feature contributes to one session, decided before the session is admitted. */
export interface FeaturePlan {
  /** False: a warm browser cannot serve the session (its launch must carry this feature). Default true. */
  readonly warmFits?: boolean;
  /** The extension a cold browser is launched with. */
  readonly extension?: SessionExtension | null;
  /** The upstream proxies the browser's egress proxy chains to, from its launch or its session's start. */
  readonly routes?: readonly UpstreamRoute[];
  /** True: the session gets a `seleniumRemoteUrl` (a chromedriver serves its browser). */
  readonly webdriver?: boolean;
  /** Keeps the session's downloads once it ends (the session calls it as it ends). */
  readonly holdDownloads?: HoldDownloads;
  /** Once the session is open, before any client can connect to it. */
  open?(session: LocalBrowserSession): void;
  /** Once the session has ended and its browser is gone; the session's end waits for its promise. */
  ended?(session: LocalBrowserSession): void | Promise<void>;
}

/**
 * One feature of local sessions (extensions, upstream proxies, files, WebDriver) behind one
 * interface: `prepare` runs before admission, so a request it refuses holds nothing (no slot, no
 * browser, no context); its plan adds launch settings, and acts once the session is open and once
 * it has ended. The provider runs its features in order and knows none of them by name.
 */
export interface SessionFeature {
  readonly name: string;
  prepare(request: CreateBrowserRequest): Promise<FeaturePlan>;
}

/** The plans of one session's features as one: what the provider's core reads of them. */
export function mergePlans(plans: readonly FeaturePlan[]): Required<
  Pick<FeaturePlan, 'warmFits' | 'extension' | 'routes' | 'webdriver'>
> & {
  holdDownloads: HoldDownloads | undefined;
} {
  return {
    warmFits: plans.every((plan) => plan.warmFits !== false),
    extension: plans.find((plan) => plan.extension)?.extension ?? null,
    routes: plans.flatMap((plan) => plan.routes ?? []),
    webdriver: plans.some((plan) => plan.webdriver === true),
    holdDownloads: plans.find((plan) => plan.holdDownloads)?.holdDownloads,
  };
}

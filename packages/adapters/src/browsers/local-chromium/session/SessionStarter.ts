import { type CreateBrowserRequest, ProviderError, TIMEOUT_MIN_SEC } from '@browserdeck/domain';
import type { LocalChromiumProviderOptions } from '../LocalChromiumProviderOptions.ts';
import type { PreparedBrowser } from '../launch/PreparedBrowser.ts';
import type { LocalProviderParts } from '../localProviderParts.ts';
import { ContextClaim } from '../profiles/ContextClaim.ts';
import { LocalBrowserSession } from './LocalBrowserSession.ts';
import { type FeaturePlan, mergePlans } from './SessionFeature.ts';

/**
 * How a local session starts, as one pipeline: every feature prepares (in order, before any slot,
 * browser or context is taken, so a refusal holds nothing), the context is claimed, the session is
 * admitted (by this instance, then its account's share across instances: `ClusterShare`), a browser
 * acquired (warm, or launched with what the plans ask), the session opened and each feature told; a
 * create that fails on the way gives back what it took.
 */
export class SessionStarter {
  private readonly parts: LocalProviderParts;
  private readonly options: LocalChromiumProviderOptions;
  private readonly instanceId: string;
  private readonly isClosed: () => boolean;

  constructor(deps: {
    parts: LocalProviderParts;
    options: LocalChromiumProviderOptions;
    instanceId: string;
    isClosed: () => boolean;
  }) {
    this.parts = deps.parts;
    this.options = deps.options;
    this.instanceId = deps.instanceId;
    this.isClosed = deps.isClosed;
  }

  async start(request: CreateBrowserRequest): Promise<LocalBrowserSession> {
    this.refuseWhenClosed();
    const { features, browsers, admission, registry, contextLocks, sharedContexts } = this.parts;
    const plans: FeaturePlan[] = [];
    for (const feature of features) plans.push(await feature.prepare(request));
    const plan = mergePlans(plans);
    // A shared context is held across the cluster and unpacked here before admission; let go if refused.
    const claim = sharedContexts
      ? await sharedContexts.claim(request)
      : ContextClaim.of(request, this.options.dataDir, contextLocks);
    let admitted: ReturnType<typeof admission.admit>;
    try {
      await browsers.ready();
      admitted = admission.admit(request, claim, plan.warmFits);
    } catch (error) {
      await claim?.abandon();
      throw error;
    }
    let opened = false;
    try {
      // The account's share across instances, once this instance's own count let the create through.
      await this.parts.share.claim(request, this.timeoutSecOf(request));
      const browser = await browsers.acquire(admitted, claim, request.viewport, plan.extension, plan.routes);
      if (this.isClosed()) {
        await browser.dispose();
        this.refuseWhenClosed();
      }
      const session = this.open(browser, request, plans, plan);
      registry.add(session, claim);
      opened = true;
      return session;
    } finally {
      // Also after a claim that failed: its insert may have been stored without the answer coming back.
      if (!opened) this.parts.share.free(request.sessionId);
      const settled = admission.settle(request, claim, opened);
      browsers.refill();
      // A failed create answers once its context is free again on every instance.
      await settled;
    }
  }

  private open(
    browser: PreparedBrowser,
    request: CreateBrowserRequest,
    plans: readonly FeaturePlan[],
    plan: ReturnType<typeof mergePlans>,
  ): LocalBrowserSession {
    const { admission, registry, browsers } = this.parts;
    const session = LocalBrowserSession.start({
      browser,
      request,
      instanceId: this.instanceId,
      publicUrl: this.options.publicUrl,
      webdriver: plan.webdriver,
      clock: this.options.clock,
      timeoutSec: this.timeoutSecOf(request),
      // A session that reads as ended frees its account's share at once; its browser counts against
      // the provider's total until it is gone.
      onEnding: (ending) => {
        admission.free(ending.ownerId);
        this.parts.share.free(ending.browserdeckSessionId);
        browsers.sessionEnding();
      },
      holdDownloads: plan.holdDownloads,
      // The session's end (its release's answer) waits for what the features finish (a capture's
      // last write), so nothing of it is lost to a shutdown right after.
      onEnded: async (ended) => {
        const finishing = plans.map((each) => each.ended?.(ended));
        registry.retire(ended);
        browsers.refill();
        await Promise.all(finishing);
      },
    });
    for (const each of plans) each.open?.(session);
    return session;
  }

  /** The session's timeout: the request's, raised to the shortest honoured. */
  private timeoutSecOf(request: CreateBrowserRequest): number {
    return Math.max(request.timeoutSec, this.options.minTimeoutSec ?? TIMEOUT_MIN_SEC);
  }

  private refuseWhenClosed(): void {
    if (this.isClosed())
      throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
  }
}

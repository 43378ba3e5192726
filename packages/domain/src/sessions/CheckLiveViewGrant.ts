import { type LiveViewCredentialDeps, liveViewCredentialHolds } from './liveViewCredentialHolds.ts';
import type { LiveViewGrant } from './OpenLiveView.ts';

/** What CheckLiveViewGrant needs: the same stores `OpenLiveView` checked the credential in. */
export type CheckLiveViewGrantDeps = LiveViewCredentialDeps;

/**
 * Re-checks an open viewer's grant (http-api.md §14): true while the credential its token names
 * still holds (project not archived, API key not revoked or expired, sign-in not ended), false once
 * it does not, when the viewer is to be closed. The token's expiry and the session are not looked
 * at: a viewer admitted before its token expired keeps watching, and the hub closes viewers of a
 * session that ends.
 */
export class CheckLiveViewGrant {
  private readonly deps: CheckLiveViewGrantDeps;

  constructor(deps: CheckLiveViewGrantDeps) {
    this.deps = deps;
  }

  execute(input: { grant: Pick<LiveViewGrant, 'claims'> }): Promise<boolean> {
    return liveViewCredentialHolds(this.deps, input.grant.claims);
  }
}

/** What the provider holds when a create asks for a slot. */
export interface AdmissionState {
  /** `LOCAL_MAX_SESSIONS`: browsers at once, sessions and warm ones together. */
  readonly maxSessions: number;
  /** Sessions running (or their browsers still stopping) plus creates under way. */
  readonly sessions: number;
  /** Warm browsers held, ready or launching. */
  readonly warm: number;
  /** `LOCAL_MAX_SESSIONS_PER_OWNER`. */
  readonly maxPerOwner: number;
  /** Slots the asking account holds now (its running sessions and creates under way). */
  readonly ownerHeld: number;
}

/** What a create asks for, as far as admission cares. */
export interface AdmissionRequest {
  /** A warm browser fits (no context profile to open, no viewport of its own to launch with). */
  readonly warmFits: boolean;
  /**
   * With a context: whether its lock can be taken (exclusively to save to it, or for a copy); null
   * without a context.
   */
  readonly contextFree: boolean | null;
}

/** Why a create is refused: every provider slot taken, the account's share taken, or its context busy. */
export type AdmissionRefusal = 'capacity' | 'owner_share' | 'context_busy';

/** The decision: a refusal, or a slot with a warm or a freshly launched browser. */
export type Admission =
  | { readonly admitted: false; readonly refusal: AdmissionRefusal }
  | {
      readonly admitted: true;
      readonly browser: 'warm' | 'cold';
      /** A cold launch needs a warm browser's slot: one is stopped first. */
      readonly evictWarm: boolean;
    };

/**
 * Admission of a local session, one pure decision (docs/security.md, Resource limits): the global
 * cap counts sessions only, since warm browsers give their slots up; then the account's fair share
 * (per owner, whichever project or credential asks); then the context's lock. An admitted create
 * takes a warm browser when one fits and is held, else launches one, stopping a warm browser first
 * when every slot is taken.
 */
export function admitSession(state: AdmissionState, request: AdmissionRequest): Admission {
  if (state.sessions >= state.maxSessions) return { admitted: false, refusal: 'capacity' };
  if (state.ownerHeld >= state.maxPerOwner) return { admitted: false, refusal: 'owner_share' };
  if (request.contextFree === false) return { admitted: false, refusal: 'context_busy' };
  if (request.warmFits && state.warm > 0) return { admitted: true, browser: 'warm', evictWarm: false };
  return { admitted: true, browser: 'cold', evictWarm: state.sessions + state.warm >= state.maxSessions };
}

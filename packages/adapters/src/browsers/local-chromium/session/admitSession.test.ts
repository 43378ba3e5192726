import { describe, expect, it } from 'vitest';
import { type AdmissionState, admitSession } from './admitSession.ts';

const state = (over: Partial<AdmissionState> = {}): AdmissionState => ({
  maxSessions: 4,
  sessions: 0,
  warm: 1,
  maxPerOwner: 2,
  ownerHeld: 0,
  ...over,
});
const plain = { warmFits: true, contextFree: null };

describe('admitSession', () => {
  it('hands out a warm browser when one is held and fits', () => {
    expect(admitSession(state(), plain)).toEqual({ admitted: true, browser: 'warm', evictWarm: false });
  });

  it('launches when no warm browser is held, or it does not fit (a context, a viewport)', () => {
    expect(admitSession(state({ warm: 0 }), plain)).toEqual({
      admitted: true,
      browser: 'cold',
      evictWarm: false,
    });
    expect(admitSession(state(), { warmFits: false, contextFree: true })).toEqual({
      admitted: true,
      browser: 'cold',
      evictWarm: false,
    });
  });

  it('stops a warm browser first when a launch needs its slot', () => {
    expect(admitSession(state({ sessions: 3, warm: 1 }), { warmFits: false, contextFree: null })).toEqual({
      admitted: true,
      browser: 'cold',
      evictWarm: true,
    });
    expect(
      admitSession(state({ sessions: 2, warm: 2 }), { warmFits: false, contextFree: null }),
    ).toMatchObject({
      evictWarm: true,
    });
  });

  it('refuses at the global cap, whatever the warm pool holds', () => {
    expect(admitSession(state({ sessions: 4, warm: 0 }), plain)).toEqual({
      admitted: false,
      refusal: 'capacity',
    });
    expect(admitSession(state({ sessions: 4, warm: 3, ownerHeld: 0 }), plain)).toMatchObject({
      refusal: 'capacity',
    });
  });

  it("refuses past the account's share though slots are free, before looking at its context", () => {
    expect(
      admitSession(state({ sessions: 2, ownerHeld: 2 }), { warmFits: false, contextFree: false }),
    ).toEqual({
      admitted: false,
      refusal: 'owner_share',
    });
  });

  it('refuses a context that is busy (saved to by another session, or being deleted)', () => {
    expect(admitSession(state(), { warmFits: false, contextFree: false })).toEqual({
      admitted: false,
      refusal: 'context_busy',
    });
  });
});
